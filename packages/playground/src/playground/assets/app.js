// The playground page's behaviour: send what the person does to the playground API, and show the
// server-rendered fragments it returns. No HTML is built here from data; fragments come escaped.
// Polls say which version the page has: only what changed since comes back.

(() => {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const $ = (id) => document.getElementById(id);
  const timeline = $('timeline');
  const overlay = $('overlay');
  const flexpane = $('flexpane');
  const home = $('home');
  const input = $('composer-input');
  const completion = $('completion');
  const jump = $('jump');
  const rendered = new Map();
  const history = [];
  let historyAt = 0;
  let version = 0;
  let conversation = '';
  let day = new Date().toDateString();
  let modalHtml = '';
  let refreshing = null;
  let again = false;
  // Anchored at the bottom, like Slack, until the reader scrolls up.
  let stick = true;
  let choices = [];
  let chosen = 0;

  const sideItems = () => [...document.querySelectorAll('.side-item[data-conversation]')];
  conversation = (document.querySelector('.side-item.active') || sideItems()[0])?.dataset.conversation || '';

  async function post(path, body) {
    let out = { ok: false };
    try {
      const res = await fetch(`/playground/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body || {}),
      });
      out = await res.json();
    } catch {
      out = { ok: false, message: 'The playground is not answering. Is Vigil still running?' };
    }
    await refresh();
    return out;
  }

  /** One refresh at a time; a request made meanwhile runs once more after it. */
  function refresh() {
    if (refreshing !== null) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        // A new day: "Today" and "Yesterday" in dates move, so everything is asked for again.
        const today = new Date().toDateString();
        if (today !== day) {
          day = today;
          version = 0;
        }
        const asked = conversation;
        try {
          const res = await fetch(
            `/playground/api/state?tz=${encodeURIComponent(timeZone)}&c=${encodeURIComponent(asked)}&since=${version}`,
          );
          if (res.ok && asked === conversation) apply(await res.json());
        } catch {
          // The next poll tries again.
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  }

  function apply(state) {
    version = state.version;
    if (state.unchanged) return;
    if (state.conversations) applyConversations(state.conversations);
    if (state.conversation === conversation) applyEntries(state);
    if (state.modal !== undefined) applyModal(state.modal);
    if (state.home !== undefined && state.home) home.innerHTML = state.home;
    if (state.panel !== undefined) {
      flexpane.innerHTML = state.panel;
      flexpane.hidden = state.panel === '';
    }
  }

  function applyConversations(list) {
    for (const c of list) {
      const item = document.querySelector(`.side-item[data-conversation="${CSS.escape(c.id)}"]`);
      const badge = item?.querySelector('.badge');
      if (!badge) continue;
      const unread = c.id === conversation ? 0 : c.unread;
      badge.hidden = unread === 0;
      badge.textContent = unread > 99 ? '99+' : String(unread);
      item.classList.toggle('unread', unread > 0);
    }
  }

  function entryElement(entry) {
    let el = document.getElementById(`entry-${entry.id}`);
    if (!el) {
      el = document.createElement('div');
      el.id = `entry-${entry.id}`;
      el.className = `msg msg-${entry.kind}`;
      el.dataset.entryId = entry.id;
    }
    if (rendered.get(entry.id) !== entry.html) {
      rendered.set(entry.id, entry.html);
      el.innerHTML = entry.html;
      if (entry.kind === 'welcome') decorateWelcome(el);
    }
    return el;
  }

  function applyEntries(state) {
    if (state.full) {
      timeline.replaceChildren();
      rendered.clear();
    }
    let added = false;
    const fresh = new Map();
    for (const entry of state.entries || []) {
      const isNew = !document.getElementById(`entry-${entry.id}`);
      fresh.set(entry.id, entryElement(entry));
      added = added || isNew;
    }
    if (state.order) {
      const keep = new Set(state.order);
      for (const el of [...timeline.children]) {
        if (!keep.has(el.dataset.entryId)) {
          rendered.delete(el.dataset.entryId);
          el.remove();
        }
      }
      let previous = null;
      for (const id of state.order) {
        const el = fresh.get(id) || document.getElementById(`entry-${id}`);
        if (!el) continue;
        const wanted = previous ? previous.nextElementSibling : timeline.firstElementChild;
        if (wanted !== el) timeline.insertBefore(el, wanted);
        previous = el;
      }
    }
    // A first visit: the welcome is read from its top; the first command anchors the timeline again.
    if (state.full && state.order?.length === 1 && state.entries?.[0]?.kind === 'welcome') {
      timeline.scrollTop = 0;
      stick = false;
      return;
    }
    if (stick) toBottom();
    else if (added) jump.hidden = false;
  }

  function toBottom() {
    timeline.scrollTop = timeline.scrollHeight;
    jump.hidden = true;
  }

  timeline.addEventListener('scroll', () => {
    stick = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 40;
    if (stick) jump.hidden = true;
  });
  // Late layout (a dialog, a font) must not leave an anchored timeline short of the bottom.
  new ResizeObserver(() => {
    if (stick) toBottom();
  }).observe(timeline);

  /** The welcome message's example commands fill the composer when clicked. */
  function decorateWelcome(el) {
    for (const code of el.querySelectorAll('code')) {
      if (!code.textContent.startsWith('/vigil')) continue;
      code.classList.add('welcome-command');
      code.setAttribute('role', 'button');
      code.setAttribute('tabindex', '0');
      code.title = 'Put this command in the composer';
    }
  }

  function applyModal(html) {
    if (html === modalHtml) return;
    const before = overlay.querySelector('[data-view-id]');
    const kept = before ? { viewId: before.dataset.viewId, inputs: collectInputs(before) } : null;
    modalHtml = html;
    overlay.innerHTML = html;
    overlay.hidden = html === '';
    const modal = overlay.querySelector('[data-view-id]');
    if (!modal) return;
    if (kept && kept.viewId === modal.dataset.viewId) restoreInputs(modal, kept.inputs);
    const error = modal.querySelector('.bk-has-error .bk-input, .bk-has-error .bk-select');
    const first = error || modal.querySelector('.bk-input, .bk-select, input, button');
    if (first) first.focus();
  }

  function valuesOf(el) {
    if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    if (el.classList.contains('bk-choices'))
      return [...el.querySelectorAll('input:checked')].map((i) => i.value);
    if (el.type === 'file') return el.dataset.fileId ? [el.dataset.fileId] : [];
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return [el.value];
    return [];
  }

  function collectInputs(root) {
    return [...root.querySelectorAll('[data-input-block] [data-action-id]')].map((el) => ({
      blockId: el.dataset.blockId,
      actionId: el.dataset.actionId,
      values: valuesOf(el),
    }));
  }

  function restoreInputs(root, inputs) {
    for (const saved of inputs) {
      for (const el of root.querySelectorAll('[data-input-block] [data-action-id]')) {
        if (el.dataset.blockId !== saved.blockId || el.dataset.actionId !== saved.actionId) continue;
        if (el.tagName === 'SELECT') {
          for (const o of el.options) o.selected = saved.values.includes(o.value);
        } else if (el.classList.contains('bk-choices')) {
          for (const i of el.querySelectorAll('input')) i.checked = saved.values.includes(i.value);
        } else if (el.type === 'file') {
          if (saved.values[0]) el.dataset.fileId = saved.values[0];
        } else if (!el.disabled) {
          el.value = saved.values[0] || '';
        }
      }
    }
  }

  /** A picked file goes to the simulated Slack first, as Slack hosts a file before the form is sent. */
  async function hostFile(el) {
    const file = el.files?.[0];
    const status = el.parentElement?.querySelector('.file-status');
    delete el.dataset.fileId;
    if (!file) return;
    if (status) status.textContent = `Sending ${file.name} to Slack…`;
    const data = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    }).catch(() => '');
    const out = await post('file', { name: file.name, type: file.type, data });
    if (out.ok && out.file) {
      el.dataset.fileId = out.file.id;
      if (status) status.textContent = `${out.file.name} is ready to send.`;
    } else if (status) {
      status.textContent = out.message || 'The file could not be sent.';
    }
  }

  async function act(el) {
    const view = el.closest('[data-view-id]');
    const entry = el.closest('[data-entry-id]');
    const body = {
      blockId: el.dataset.blockId,
      actionId: el.dataset.actionId,
      values: valuesOf(el),
    };
    if (view) {
      body.viewId = view.dataset.viewId;
      body.inputs = collectInputs(view);
    } else if (entry) {
      body.entryId = entry.dataset.entryId;
    } else {
      return;
    }
    const isButton = el.tagName === 'BUTTON';
    if (isButton) el.disabled = true;
    await post('action', body);
    if (isButton && el.isConnected) el.disabled = false;
  }

  async function send() {
    const text = input.value.trim();
    if (text === '') return;
    closeCompletion();
    history.push(text);
    historyAt = history.length;
    input.value = '';
    // Sending brings the reader back to the newest message, as in Slack.
    stick = true;
    toBottom();
    // A message with a link is sent as written (Vigil unfurls its links); other text is a command.
    const message = !text.startsWith('/') && /https?:\/\//.test(text);
    await post('command', { text: message || text.startsWith('/') ? text : `/vigil ${text}`, conversation });
  }

  function showConversation(id) {
    const item = sideItems().find((i) => i.dataset.conversation === id);
    if (!item) return;
    conversation = id;
    for (const i of sideItems()) i.classList.toggle('active', i === item);
    const name = item.dataset.name;
    const label = item.dataset.kind === 'im' ? name : `# ${name}`;
    $('view-title').textContent = label;
    $('composer-label').textContent = `Message ${item.dataset.kind === 'im' ? name : `#${name}`}`;
    $('run-digests')?.toggleAttribute('hidden', item.dataset.kind === 'im');
    timeline.replaceChildren();
    timeline.dataset.empty = introOf(item);
    rendered.clear();
    version = 0;
    stick = true;
    showTab('messages');
    void refresh();
  }

  /** What an empty conversation says, as Slack introduces a channel. */
  function introOf(item) {
    const name = item.dataset.name;
    if (item.dataset.kind === 'im') return 'Your direct messages with Vigil: exports arrive here as files.';
    return item.classList.contains('not-member')
      ? `This is the start of #${name}. Vigil is not a member here: it cannot post in #${name} (try a digest here).`
      : `This is the start of #${name}. Vigil is a member: it can post digests and shared results here.`;
  }

  function showTab(which) {
    const homeTab = which === 'home';
    $('panel-home').hidden = !homeTab;
    $('panel-messages').hidden = homeTab;
    $('tab-home').classList.toggle('active', homeTab);
    $('tab-messages').classList.toggle('active', !homeTab);
    $('tab-home').setAttribute('aria-selected', String(homeTab));
    $('tab-messages').setAttribute('aria-selected', String(!homeTab));
    if (homeTab) void post('home', {});
    else {
      input.focus();
      if (stick) toBottom();
    }
  }

  // ── `#` completes channel names, as in Slack ───────────────────────────────────────────────────────

  function channelToken() {
    const before = input.value.slice(0, input.selectionStart);
    const m = /(^|\s)#([\w-]*)$/u.exec(before);
    return m ? { start: before.length - m[2].length - 1, prefix: m[2].toLowerCase() } : null;
  }

  function closeCompletion() {
    completion.hidden = true;
    completion.replaceChildren();
    choices = [];
  }

  function updateCompletion() {
    const token = channelToken();
    if (!token) return closeCompletion();
    choices = sideItems()
      .filter((i) => i.dataset.kind === 'channel' && i.dataset.name.startsWith(token.prefix))
      .map((i) => ({ name: i.dataset.name, member: !i.classList.contains('not-member') }));
    if (choices.length === 0) return closeCompletion();
    chosen = Math.min(chosen, choices.length - 1);
    completion.replaceChildren(
      ...choices.map((c, i) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.dataset.name = c.name;
        li.className = i === chosen ? 'chosen' : '';
        li.setAttribute('aria-selected', String(i === chosen));
        li.textContent = `#${c.name}`;
        if (!c.member) {
          const hint = document.createElement('span');
          hint.className = 'completion-hint';
          hint.textContent = 'Vigil is not a member';
          li.append(hint);
        }
        return li;
      }),
    );
    completion.hidden = false;
  }

  function pick(name) {
    const token = channelToken();
    if (!token) return;
    const end = input.selectionStart;
    input.value = `${input.value.slice(0, token.start)}#${name} ${input.value.slice(end)}`;
    const caret = token.start + name.length + 2;
    input.setSelectionRange(caret, caret);
    closeCompletion();
    input.focus();
  }

  completion.addEventListener('mousedown', (event) => {
    const li = event.target instanceof Element ? event.target.closest('li[data-name]') : null;
    if (!li) return;
    event.preventDefault();
    pick(li.dataset.name);
  });

  input.addEventListener('input', () => {
    chosen = 0;
    updateCompletion();
  });
  input.addEventListener('blur', () => setTimeout(closeCompletion, 100));

  // ── Events ─────────────────────────────────────────────────────────────────────────────────────────

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const confirmChoice = target.closest('[data-confirm]');
    if (confirmChoice) {
      const dialog = confirmChoice.closest('dialog');
      const button = dialog?.parentElement?.querySelector('[data-has-confirm]');
      dialog?.close();
      if (confirmChoice.dataset.confirm === 'confirm' && button) void act(button);
      return;
    }
    const close = target.closest('[data-view-close]');
    const submit = target.closest('[data-view-submit]');
    const view = target.closest('[data-view-id]');
    if (close && view) {
      void post('close', { viewId: view.dataset.viewId });
      return;
    }
    if (submit && view) {
      submit.disabled = true;
      void post('submit', { viewId: view.dataset.viewId, inputs: collectInputs(view) }).then(() => {
        if (submit.isConnected) submit.disabled = false;
      });
      return;
    }
    // Work Objects: a card opens its side panel; the panel's buttons and its close go to Vigil's side.
    const card = target.closest('[data-entity-entry]');
    if (card) {
      void post('entity', { entryId: card.dataset.entityEntry, index: Number(card.dataset.entityIndex) });
      return;
    }
    const entityAction = target.closest('[data-entity-action]');
    if (entityAction) {
      void post('entityaction', {
        actionId: entityAction.dataset.entityAction,
        value: entityAction.dataset.value,
      });
      return;
    }
    if (target.closest('[data-flexpane-close]')) {
      void post('entityclose', {});
      return;
    }
    const control = target.closest('button[data-action-id], a[data-action-id]');
    if (control) {
      if (control.dataset.hasConfirm) {
        control.parentElement.querySelector('dialog')?.showModal();
        return;
      }
      void act(control);
      return;
    }
    const example = target.closest('.welcome-command');
    if (example) {
      input.value = example.textContent;
      input.focus();
      return;
    }
    const side = target.closest('.side-item[data-conversation]');
    if (side) {
      event.preventDefault();
      showConversation(side.dataset.conversation);
      return;
    }
    const tab = target.closest('#tab-home, #tab-messages');
    if (tab) {
      event.preventDefault();
      showTab(tab.id === 'tab-home' ? 'home' : 'messages');
      return;
    }
    if (target.closest('#jump')) {
      stick = true;
      toBottom();
      return;
    }
    if (target.closest('#run-digests')) {
      stick = true;
      void post('digests', { conversation });
    }
  });

  document.addEventListener('change', (event) => {
    const el = event.target instanceof Element ? event.target.closest('[data-action-id]') : null;
    if (!el || el.tagName === 'BUTTON' || el.tagName === 'A') return;
    if (el.type === 'file') {
      void hostFile(el);
      return;
    }
    const block = el.closest('[data-input-block]');
    // Inputs in a form are sent on submit, unless the block asks for every change.
    if (block && !block.dataset.dispatch) return;
    void act(el);
  });

  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !overlay.hidden && !document.querySelector('dialog[open]')) {
      const view = overlay.querySelector('[data-view-id]');
      if (view) void post('close', { viewId: view.dataset.viewId });
    }
    if (
      event.key === 'Enter' &&
      event.target instanceof Element &&
      event.target.classList.contains('welcome-command')
    ) {
      input.value = event.target.textContent;
      input.focus();
    }
  });

  input.addEventListener('keydown', (event) => {
    if (!completion.hidden && choices.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        chosen = (chosen + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length;
        updateCompletion();
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(choices[chosen].name);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        closeCompletion();
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send();
    } else if (
      event.key === 'ArrowUp' &&
      (input.value === '' || historyAt < history.length) &&
      historyAt > 0
    ) {
      event.preventDefault();
      historyAt -= 1;
      input.value = history[historyAt];
    } else if (event.key === 'ArrowDown' && historyAt < history.length) {
      event.preventDefault();
      historyAt += 1;
      input.value = history[historyAt] || '';
    }
  });

  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });

  void refresh();
  setInterval(() => void refresh(), 700);
  input.focus();
})();
