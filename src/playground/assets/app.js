// The playground page's behaviour: send what the person does to the playground API, and show the
// server-rendered fragments it returns. No HTML is built here from data; fragments come escaped.

(() => {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const $ = (id) => document.getElementById(id);
  const timeline = $('timeline');
  const overlay = $('overlay');
  const home = $('home');
  const input = $('composer-input');
  const rendered = new Map();
  const history = [];
  let historyAt = 0;
  let hash = '';
  let modalHtml = '';
  let homeHtml = '';
  let refreshing = null;
  let again = false;

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
        try {
          const res = await fetch(
            `/playground/api/state?tz=${encodeURIComponent(timeZone)}&h=${encodeURIComponent(hash)}`,
          );
          if (res.ok) apply(await res.json());
        } catch {
          // The next poll tries again.
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  }

  function apply(state) {
    hash = state.hash;
    if (state.unchanged) return;
    applyEntries(state.entries);
    applyModal(state.modal);
    if (state.home !== homeHtml) {
      homeHtml = state.home;
      if (homeHtml) home.innerHTML = homeHtml;
    }
  }

  function applyEntries(entries) {
    const atBottom = timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 120;
    const seen = new Set();
    let previous = null;
    let added = false;
    for (const entry of entries) {
      seen.add(entry.id);
      let el = document.getElementById(`entry-${entry.id}`);
      if (!el) {
        el = document.createElement('div');
        el.id = `entry-${entry.id}`;
        el.className = `msg msg-${entry.kind}`;
        el.dataset.entryId = entry.id;
        timeline.insertBefore(el, previous ? previous.nextSibling : timeline.firstChild);
        added = true;
      }
      if (rendered.get(entry.id) !== entry.html) {
        rendered.set(entry.id, entry.html);
        el.innerHTML = entry.html;
        if (entry.kind === 'welcome') decorateWelcome(el);
      }
      previous = el;
    }
    for (const el of [...timeline.children]) {
      if (!seen.has(el.dataset.entryId)) {
        rendered.delete(el.dataset.entryId);
        el.remove();
      }
    }
    if (added && atBottom) timeline.scrollTop = timeline.scrollHeight;
  }

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
    const first = modal.querySelector('.bk-input, .bk-select, input, button');
    if (first) first.focus();
  }

  function valuesOf(el) {
    if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    if (el.classList.contains('bk-choices'))
      return [...el.querySelectorAll('input:checked')].map((i) => i.value);
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
        } else if (!el.disabled) {
          el.value = saved.values[0] || '';
        }
      }
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
    history.push(text);
    historyAt = history.length;
    input.value = '';
    await post('command', { text: text.startsWith('/') ? text : `/vigil ${text}` });
    timeline.scrollTop = timeline.scrollHeight;
  }

  function showTab(which) {
    const homeTab = which === 'home';
    $('panel-home').hidden = !homeTab;
    $('panel-messages').hidden = homeTab;
    $('tab-home').classList.toggle('active', homeTab);
    $('tab-messages').classList.toggle('active', !homeTab);
    $('tab-home').setAttribute('aria-selected', String(homeTab));
    $('tab-messages').setAttribute('aria-selected', String(!homeTab));
    $('nav-home').classList.toggle('active', homeTab);
    $('nav-channel').classList.toggle('active', !homeTab);
    if (homeTab) void post('home', {});
    else input.focus();
  }

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
      void post('submit', { viewId: view.dataset.viewId, inputs: collectInputs(view) });
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
    const tab = target.closest('#tab-home, #nav-home, #tab-messages, #nav-channel');
    if (tab) {
      event.preventDefault();
      showTab(tab.id.endsWith('home') ? 'home' : 'messages');
      return;
    }
    if (target.closest('#run-digests')) void post('digests', {});
  });

  document.addEventListener('change', (event) => {
    const el = event.target instanceof Element ? event.target.closest('[data-action-id]') : null;
    if (!el || el.tagName === 'BUTTON' || el.tagName === 'A') return;
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

  void refresh().then(() => {
    timeline.scrollTop = timeline.scrollHeight;
  });
  setInterval(() => void refresh(), 700);
  input.focus();
})();
