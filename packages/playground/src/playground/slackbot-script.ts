/**
 * The Slackbot panel's script: lists the suggested questions and Vigil's tools, posts a question, and shows
 * each answer — the tool chosen with its arguments, the tool's text as text (never as HTML), and its Block
 * Kit as the playground's renderer drew it on the server.
 */
export const SLACKBOT_SCRIPT = `'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  let busy = false;
  async function ask(question) {
    if (busy) return;
    busy = true;
    const turn = el('div', 'message slackbot-turn');
    turn.append(el('div', 'message-author', 'You'), el('div', 'message-text', question));
    const answer = el('div', 'message slackbot-answer pending');
    answer.append(el('div', 'message-author', 'Slackbot · asking Vigil…'));
    turn.append(answer);
    $('answers').prepend(turn);
    try {
      const r = await fetch('/playground/slackbot/ask?tz=' + encodeURIComponent(tz), {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question }),
      });
      const a = await r.json();
      answer.classList.remove('pending');
      answer.replaceChildren(el('div', 'message-author', 'Slackbot'));
      if (!a.ok) { answer.append(el('div', 'message-text', a.message || 'No answer.')); return; }
      answer.dataset.tool = a.tool;
      answer.append(el('div', 'slackbot-used', 'Used Vigil › ' + a.tool + ' ' + JSON.stringify(a.arguments) + (a.isError ? ' · refused or failed' : '')));
      if (a.blocksHtml) { const b = el('div', 'blocks slackbot-blocks'); b.innerHTML = a.blocksHtml; answer.append(b); }
      const model = el('details', 'slackbot-model');
      model.open = !a.blocksHtml;
      model.append(el('summary', '', 'What the model reads (the tool’s text)'), el('pre', 'slackbot-text', a.text));
      answer.append(model);
    } catch {
      answer.replaceChildren(el('div', 'message-text', 'The playground could not reach Vigil.'));
    } finally {
      busy = false;
    }
  }
  async function load() {
    const r = await fetch('/playground/slackbot/tools');
    if (!r.ok) return;
    const s = await r.json();
    $('suggestions').replaceChildren(...s.suggestions.map((q) => {
      const b = el('button', 'toolbar-button', q);
      b.type = 'button';
      b.addEventListener('click', () => ask(q));
      return b;
    }));
    $('tools-summary').textContent = 'Vigil’s tools (' + s.tools.length + ', from tools/list)';
    $('tools').replaceChildren(...s.tools.map((t) => {
      const li = el('li', 'slackbot-tool');
      li.append(el('code', '', t.name), document.createTextNode(' · ' + t.title));
      li.title = t.description;
      return li;
    }));
  }
  const send = () => {
    const input = $('slackbot-input');
    const q = input.value.trim();
    if (!q) return;
    input.value = '';
    ask(q);
  };
  $('slackbot-composer').addEventListener('submit', (e) => { e.preventDefault(); send(); });
  $('slackbot-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); send(); }
  });
  load();
})();
`;
