/**
 * The employee's side of "ask the affected person" (docs/ask-person.md), as a second person in the
 * playground (`/playground/person`): @dana, a member of the company whose password can be made to leak, sees
 * her DM with Vigil as she would in Slack, and clicks an answer as herself. The click goes to Vigil as Slack
 * sends it (a signed block_actions from @dana, in her DM); Vigil's reply in the alert's thread then shows in
 * the channel view, like every message Vigil posts. The leak is put in the simulated API, as Flare would find
 * it: Vigil's alert, its DM and the answer all run the real path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimApi } from '../sim/api/index.js';
import type { FakeSlack } from '../sim/slack/index.js';
import { actionFor } from './inputs.js';
import { messageBodyHtml, type RenderContext } from './render/blocks.js';
import { isSameOrigin, json, servePage, sideDocument } from './side-page.js';
import type { Actor, SlackSide } from './slack-side.js';

/** The employee: a full member (not a guest), with an address on the tenant's domain. */
export interface Employee {
  actor: Actor;
  email: string;
  /** The tenant's domain identifier her address is on. */
  identifier: { id: number; tenantId: number };
}

export interface PersonDmOptions {
  slack: FakeSlack;
  sim: SimApi;
  side: SlackSide;
  employee: Employee;
  botUserId: string;
  nowMs: () => number;
  context(timeZone: string): RenderContext;
}

const EMPLOYEE_ID = 'U0DANA001';
const MAX_MESSAGES = 30;
const BODY_LIMIT = 4 * 1024;

/**
 * Adds @dana to the workspace with an address on the tenant's first domain identifier; undefined when the
 * tenant watches no domain (no company address to leak).
 */
export function seedEmployee(
  slack: FakeSlack,
  sim: SimApi,
  tenantId: number,
  of: Actor,
): Employee | undefined {
  const domain = sim.state.identifiersOf(tenantId).find((i) => i.kind === 'domain');
  if (domain === undefined) return undefined;
  const email = `dana.smith@${domain.name.replace(/^\*\./, '')}`;
  slack.addUser({ id: EMPLOYEE_ID, team_id: of.teamId, name: 'dana', email });
  return {
    actor: { ...of, userId: EMPLOYEE_ID, userName: 'dana' },
    email,
    identifier: { id: domain.id, tenantId },
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const dmOf = (o: PersonDmOptions) => o.slack.openDm(o.employee.actor.userId, o.employee.actor.teamId);

/** The employee's DM with Vigil as she sees it: Vigil's messages, rendered as the channel view renders them. */
function state(o: PersonDmOptions, url: URL) {
  const ctx = o.context(url.searchParams.get('tz') ?? 'UTC');
  const messages = o.slack.messages(dmOf(o).id).slice(-MAX_MESSAGES);
  return {
    name: o.employee.actor.userName,
    messages: messages.map((m) => ({
      ts: m.ts,
      edited: m.edited !== undefined,
      html: messageBodyHtml({ text: m.text, blocks: m.blocks }, ctx),
    })),
  };
}

/**
 * A password of the employee's found in a combolist: a new leaked credential in the simulated API (`n`: the
 * how-manieth, each from its own list, so each is a new credential to ask about).
 */
function leak(o: PersonDmOptions, res: ServerResponse, leaks: number): void {
  const { id, tenantId } = o.employee.identifier;
  o.sim.state.addEvent({
    tenantId,
    identifierIds: [id],
    createdAt: o.nowMs(),
    severity: 'critical',
    type: 'leaked_credential',
    title: `Credentials of ${o.employee.email} in playground_combolist_${leaks}`,
    uid: `leaked_credential/playground_combolist_${leaks}/${o.nowMs()}`,
  });
  json(res, 200, { ok: true });
}

/** A click in the DM, as the employee: Slack's block_actions from her, in her DM, for that message. */
async function answer(o: PersonDmOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const input = await readJson(req);
  const ts = typeof input?.ts === 'string' ? input.ts : '';
  const blockId = typeof input?.blockId === 'string' ? input.blockId : '';
  const actionId = typeof input?.actionId === 'string' ? input.actionId : '';
  const dm = dmOf(o);
  const message = o.slack.messages(dm.id).find((m) => m.ts === ts);
  const action = message && actionFor(message.blocks, { blockId, actionId, values: [] });
  if (message === undefined || action === undefined)
    return json(res, 400, { ok: false, message: 'That button is no longer in the message.' });
  const reply = await o.side.blockAction(o.employee.actor, {
    action,
    triggerId: o.slack.triggerId(),
    container: {
      kind: 'message',
      channelId: dm.id,
      channelName: 'directmessage',
      ts,
      ephemeral: false,
      message: { type: 'message', user: o.botUserId, ts, text: message.text, blocks: message.blocks ?? [] },
      responseUrl: o.slack.responseUrl(),
    },
  });
  json(res, reply.status === 200 ? 200 : 502, { ok: reply.status === 200 });
}

/** Answers the employee view's paths (the playground's host already checked); false for any other. */
export function createPersonDmRoutes(o: PersonDmOptions) {
  let leaks = 0;
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (servePage(req, res, url, { path: '/playground/person', page: PERSON_PAGE, script: PERSON_SCRIPT }))
      return true;
    const sameOrigin = isSameOrigin(req);
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /playground/person/state':
        json(res, 200, state(o, url));
        return true;
      case 'POST /playground/person/leak':
        if (!sameOrigin) json(res, 403, { ok: false });
        else leak(o, res, ++leaks);
        return true;
      case 'POST /playground/person/answer':
        if (!sameOrigin) json(res, 403, { ok: false });
        else await answer(o, req, res);
        return true;
      default:
        return false;
    }
  };
}

const PERSON_PAGE = sideDocument(
  '@dana · DM with Vigil · playground',
  '/playground/person.js',
  `<main class="main person-dm">
  <header class="channel-head"><div class="channel-title" id="person-title">@dana · Vigil (DM)</div>
    <button type="button" class="toolbar-button" id="person-leak">Leak one of @dana's passwords</button>
    <a class="toolbar-button" href="/">Back to the workspace (as @adam)</a></header>
  <div class="banner" role="note"><b>Playground</b>: you are <b>@dana</b> now, an employee whose password can leak.
    As @adam, turn asking on in #general: <code>/vigil alerts add type:leaked_credential ask-person:on</code>; then
    leak a password here. Vigil posts the alert in #general and asks @dana here, privately, never showing the
    password. Her answer goes to the alert's thread.</div>
  <div class="timeline" id="person-messages" aria-live="polite"><p class="home-empty">No message from Vigil yet.</p></div>
</main>`,
);

/** Polls the DM and renders the server's HTML (escaped by the renderer); a click posts which button, as @dana. */
const PERSON_SCRIPT = `'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const post = (path, body) => fetch('/playground/person/' + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}),
  });
  let seen = '';
  function render(state) {
    const key = JSON.stringify(state.messages);
    if (key === seen) return;
    seen = key;
    const list = $('person-messages');
    if (state.messages.length === 0) return;
    list.replaceChildren(...state.messages.map((m) => {
      const msg = document.createElement('div');
      msg.className = 'msg msg-channel';
      msg.dataset.ts = m.ts;
      msg.innerHTML = '<div class="msg-avatar avatar-channel" aria-hidden="true">V</div><div class="msg-main">' +
        '<div class="msg-head"><span class="msg-author">Vigil</span><span class="app-badge">APP</span>' +
        (m.edited ? '<span class="edited">(edited)</span>' : '') + '</div><div class="msg-body">' + m.html + '</div></div>';
      return msg;
    }));
  }
  async function poll() {
    try { const r = await fetch('/playground/person/state?tz=' + encodeURIComponent(tz)); if (r.ok) render(await r.json()); } catch {}
    setTimeout(poll, 500);
  }
  $('person-messages').addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-action-id]') : null;
    const msg = button && button.closest('[data-ts]');
    if (!button || !msg) return;
    button.disabled = true;
    post('answer', { ts: msg.dataset.ts, blockId: button.dataset.blockId, actionId: button.dataset.actionId });
  });
  $('person-leak').addEventListener('click', () => { post('leak'); });
  poll();
})();
`;
