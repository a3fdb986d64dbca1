/**
 * Vigil's agent DM in the playground (`/playground/agent`): the prompts Vigil suggests when the DM opens, a
 * composer, and each answer as it streams (the plan, each task's state, the text, then the result's blocks),
 * read from the fake Slack's record of the streaming methods. Messages go to Vigil as Slack sends them: the
 * person's message is put in the fake's DM and a signed `message` event (`channel_type: im`) is delivered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeSlack, StreamRecord } from '../sim/slack/index.js';
import { blocksHtml, type RenderContext } from './render/blocks.js';
import { escapeHtml } from './render/escape.js';
import { isSameOrigin, json, servePage, sideDocument } from './side-page.js';
import type { Actor, SlackSide } from './slack-side.js';

export interface AgentDmOptions {
  slack: FakeSlack;
  side: SlackSide;
  actor: Actor;
  botUserId: string;
  context(timeZone: string): RenderContext;
}

const MAX_TEXT = 2_000;
const MAX_TURNS = 30;

async function readText(
  req: IncomingMessage,
): Promise<{ text: string; thread: string | undefined } | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) return undefined;
    chunks.push(chunk);
  }
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  const text = typeof value.text === 'string' ? value.text.slice(0, MAX_TEXT).trim() : '';
  const thread =
    typeof value.thread === 'string' && /^\d+\.\d+$/.test(value.thread) ? value.thread : undefined;
  return text === '' ? undefined : { text, thread };
}

/** One stream as the page shows it: the markdown as text (the page never renders it as HTML). */
function streamView(s: StreamRecord, blocks: unknown[] | undefined, ctx: RenderContext) {
  return {
    ts: s.ts,
    state: s.state,
    plan: s.planTitle ?? '',
    tasks: [...s.tasks.entries()].map(([id, t]) => ({ id, ...t })),
    markdown: s.chunks.flatMap((c) => (c.type === 'markdown_text' ? [c.text] : [])).join(''),
    blocksHtml: blocks === undefined ? '' : blocksHtml(blocks, ctx),
  };
}

function state(o: AgentDmOptions, url: URL) {
  const dm = o.slack.openDm(o.actor.userId, o.actor.teamId);
  const ctx = o.context(url.searchParams.get('tz') ?? 'UTC');
  const messages = o.slack.messages(dm.id);
  const streams = o.slack.streams().filter((s) => s.channel === dm.id);
  const asked = messages.filter((m) => m.user === o.actor.userId).slice(-MAX_TURNS);
  return {
    prompts: o.slack.suggestedPrompts(dm.id)?.prompts ?? [],
    turns: asked.map((m) => ({
      ts: m.ts,
      thread: m.thread_ts,
      text: m.text,
      answers: streams
        .filter((s) => s.threadTs === (m.thread_ts ?? m.ts) && Number(s.ts) > Number(m.ts))
        .slice(0, 1)
        .map((s) => streamView(s, messages.find((x) => x.ts === s.ts)?.blocks, ctx)),
    })),
  };
}

async function say(o: AgentDmOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const input = await readText(req);
  if (input === undefined) return json(res, 400, { ok: false, message: 'Type a message.' });
  const dm = o.slack.openDm(o.actor.userId, o.actor.teamId);
  const message = o.slack.addMessage({
    channel: dm.id,
    text: input.text,
    user: o.actor.userId,
    bot_id: undefined,
    ...(input.thread === undefined ? {} : { thread_ts: input.thread }),
  });
  const answer = await o.side.event(o.actor, o.botUserId, {
    type: 'message',
    channel: dm.id,
    channel_type: 'im',
    user: o.actor.userId,
    text: input.text,
    ts: message.ts,
    ...(input.thread === undefined ? {} : { thread_ts: input.thread }),
  });
  json(res, answer.status === 200 ? 200 : 502, { ok: answer.status === 200 });
}

async function open(o: AgentDmOptions, res: ServerResponse): Promise<void> {
  const dm = o.slack.openDm(o.actor.userId, o.actor.teamId);
  const answer = await o.side.event(o.actor, o.botUserId, {
    type: 'app_home_opened',
    user: o.actor.userId,
    channel: dm.id,
    tab: 'messages',
  });
  json(res, answer.status === 200 ? 200 : 502, { ok: answer.status === 200 });
}

/** Answers the agent DM's paths (already checked to be the playground's own host); false for any other. */
export function createAgentDmRoutes(o: AgentDmOptions) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const post = req.method === 'POST';
    if (servePage(req, res, url, { path: '/playground/agent', page: AGENT_PAGE, script: AGENT_SCRIPT }))
      return true;
    const sameOrigin = isSameOrigin(req);
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /playground/agent/state':
        json(res, 200, state(o, url));
        return true;
      case 'POST /playground/agent/say':
      case 'POST /playground/agent/open':
        if (!post || !sameOrigin) json(res, 403, { ok: false });
        else if (url.pathname.endsWith('/say')) await say(o, req, res);
        else await open(o, res);
        return true;
      default:
        return false;
    }
  };
}

const AGENT_PAGE = sideDocument(
  'Vigil · agent DM · playground',
  '/playground/agent.js',
  `<main class="main agent-dm">
  <header class="channel-head"><div class="channel-title">${escapeHtml('Vigil · Messages (agent DM)')}</div>
    <a class="toolbar-button" href="/">Back to the workspace</a></header>
  <div class="banner" role="note"><b>Playground</b>: Vigil's agent DM against the simulated Slack. Answers stream:
    the plan, each task as it runs, then the result. Vigil has no language model: it reads <code>/vigil</code>
    commands and a few plain requests. Reply in a thread with “ignore that one”.</div>
  <div class="prompts" id="prompts" aria-label="Suggested prompts"></div>
  <div class="timeline" id="turns" aria-live="polite"></div>
  <form class="composer" id="agent-composer" autocomplete="off">
    <label class="visually-hidden" for="agent-input">Message Vigil</label>
    <textarea id="agent-input" rows="1" placeholder="Ask Vigil: leaks for acme.example this week"></textarea>
    <button type="submit" class="send">Send</button>
  </form>
</main>`,
);

/** The page's script: polls the state, renders it with DOM text nodes (never markdown as HTML), posts messages. */
const AGENT_SCRIPT = `'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const icon = { pending: '○', in_progress: '◐', complete: '●', error: '✕' };
  let thread;
  const post = (path, body) => fetch('/playground/agent/' + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}),
  });
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  function render(state) {
    const prompts = $('prompts');
    prompts.replaceChildren(...state.prompts.map((p) => {
      const b = el('button', 'toolbar-button', p.title);
      b.type = 'button';
      b.addEventListener('click', () => { thread = undefined; post('say', { text: p.message }); });
      return b;
    }));
    $('turns').replaceChildren(...state.turns.map((t) => {
      const turn = el('div', 'message');
      turn.append(el('div', 'message-author', t.thread ? 'You, in the thread' : 'You'), el('div', 'message-text', t.text));
      for (const a of t.answers) {
        const box = el('div', 'message stream stream-' + a.state);
        box.append(el('div', 'message-author', 'Vigil' + (a.state === 'streaming' ? ' · streaming…' : '')));
        if (a.plan) box.append(el('div', 'plan-title', a.plan));
        const list = el('ul', 'tasks');
        for (const task of a.tasks) list.append(el('li', 'task task-' + task.status, icon[task.status] + ' ' + task.title + (task.details ? ' · ' + task.details : '')));
        box.append(list);
        if (a.markdown) box.append(el('pre', 'stream-markdown', a.markdown));
        if (a.blocksHtml) { const b = el('div', 'blocks'); b.innerHTML = a.blocksHtml; box.append(b); }
        const reply = el('button', 'toolbar-button', 'Reply in thread');
        reply.type = 'button';
        reply.addEventListener('click', () => { thread = t.thread || t.ts; $('agent-input').placeholder = 'Reply in the thread: ignore that one'; $('agent-input').focus(); });
        box.append(reply);
        turn.append(box);
      }
      return turn;
    }));
  }
  async function poll() {
    try { const r = await fetch('/playground/agent/state?tz=' + encodeURIComponent(tz)); if (r.ok) render(await r.json()); } catch {}
    setTimeout(poll, 400);
  }
  $('agent-composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('agent-input');
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    post('say', thread ? { text, thread } : { text });
  });
  post('open').finally(poll);
})();
`;
