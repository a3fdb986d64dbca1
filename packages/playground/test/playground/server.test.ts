/**
 * The playground's server side, in process: what the page is served with, its JSON API
 * (same-origin JSON only), the signed path into Vigil, and the digest hook.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/kernel/logger.js';
import { guardSlackContract } from '../../../../test/support/slack-contract.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

interface State {
  version: number;
  unchanged?: boolean;
  full?: boolean;
  order?: string[];
  entries: { id: string; kind: string; html: string }[];
  modal?: string;
  home?: string;
  conversations?: { id: string; name: string; unread: number }[];
}

let pg: RunningPlayground;
const digestRuns: string[] = [];
const logs: string[] = [];
const GENERAL = 'C0GENERAL';

const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(`/playground/api/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function state(since = 0, conversation = GENERAL): Promise<State> {
  const res = await fetch(
    new URL(`/playground/api/state?tz=Europe/Paris&c=${conversation}&since=${since}`, pg.url),
  );
  return (await res.json()) as State;
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0', LOG_LEVEL: 'debug' },
    createLogger: (config) => createLogger({ level: config.logLevel, write: (l) => logs.push(l) }),
    runDigestsNow: async (_workspace, channel) => {
      digestRuns.push(channel);
      return [];
    },
  });
  // Everything the playground sends its fake Slack is held to Slack's contract, as in every stack test.
  guardSlackContract(pg.slack);
});

afterAll(async () => {
  await pg?.stop();
});

describe('when the playground runs', () => {
  it('listens on 127.0.0.1 by default and logs where the page is', () => {
    expect(new URL(pg.url).hostname).toBe('127.0.0.1');
    const ready = logs
      .map((l) => JSON.parse(l) as { msg: string; url?: string })
      .find((l) => l.msg.startsWith('playground ready'));
    expect(ready?.url).toBe(pg.url);
  });
});

describe('the page', () => {
  it('is served with a strict Content-Security-Policy and no inline script', async () => {
    const res = await fetch(pg.url);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual([
      ' src="/playground/app.js" defer',
    ]);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).toContain('Run digests now');
  });
});

describe('the JSON API', () => {
  it('answers only under its own host names (no DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(pg.url, { headers: { host: `evil.example:${new URL(pg.url).port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    expect((await fetch(pg.url.replace('127.0.0.1', 'localhost'))).status).toBe(200);
  });

  it('refuses other origins and anything but JSON', async () => {
    expect((await api('command', { text: '/vigil help' }, { origin: 'http://evil.example' })).status).toBe(
      403,
    );
    const form = await fetch(new URL('/playground/api/command', pg.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=/vigil help',
    });
    expect(form.status).toBe(400);
    expect((await fetch(new URL('/playground/api/command', pg.url))).status).toBe(403);
  });

  it('sends a command through the signed Slack path and shows the reply; a poll sends only what changed', async () => {
    expect((await api('command', { text: '/vigil help', conversation: GENERAL })).status).toBe(200);
    const s = await until(async () => {
      const st = await state();
      return st.entries.some((e) => e.kind === 'ephemeral' && e.html.includes('events')) ? st : undefined;
    });
    expect(s.full).toBe(true);
    expect(s.entries.map((e) => e.kind).slice(0, 3)).toEqual(['welcome', 'command', 'ephemeral']);
    expect(s.order).toEqual(s.entries.map((e) => e.id));
    expect(s.entries[2]?.html).toContain('Only visible to you');
    expect(await state(s.version)).toEqual({ version: s.version, unchanged: true });
    // One more command: the poll from the last version holds its two entries only, and the new order.
    await api('command', { text: '/vigil help digest', conversation: GENERAL });
    const next = await until(async () => {
      const st = await state(s.version);
      return st.entries.some((e) => e.kind === 'ephemeral') ? st : undefined;
    });
    expect(next.full).toBeUndefined();
    expect(next.entries.map((e) => e.kind)).toEqual(['command', 'ephemeral']);
    expect(next.order?.slice(0, -2)).toEqual(s.order);
    expect(next.modal).toBeUndefined();
    // Vigil verified the request like any other: an unsigned one is refused.
    const unsigned = await fetch(new URL('/slack/events', pg.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'command=/vigil&text=help',
    });
    expect(unsigned.status).toBe(401);
  });

  it('answers a non-command with a hint, and a click on a vanished message with a clear message', async () => {
    await api('command', { text: 'hello', conversation: GENERAL });
    const notes = (await state()).entries.filter((e) => e.kind === 'note');
    expect(notes.map((e) => e.html).join()).toContain('Only the /vigil command works in the playground');
    const res = await api('action', { entryId: 'e999', blockId: 'b', actionId: 'a', values: [] });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, message: 'That message is gone.' });
  });

  it('opens the App Home on request', async () => {
    await api('home', {});
    const s = await until(async () => {
      const st = await state();
      return (st.home ?? '') !== '' ? st : undefined;
    });
    expect(s.home).toContain('Connected');
  });

  it("runs the digests of the conversation's channel through the hook it was given, and says so", async () => {
    expect((await api('digests', { conversation: GENERAL })).status).toBe(200);
    expect(digestRuns).toEqual([GENERAL]);
    const notes = (await state()).entries.filter((e) => e.kind === 'note').map((e) => e.html);
    expect(notes.at(-1)).toContain('No digest posts in #general yet');
  });
});

describe('stopping', () => {
  it('leaves no store behind', async () => {
    const file = logs
      .map((l) => JSON.parse(l) as { msg: string; file?: string })
      .find((l) => l.msg === 'store opened')?.file;
    expect(file).toBeTruthy();
    expect(existsSync(file ?? '')).toBe(true);
    await pg.stop();
    expect(existsSync(file ?? '')).toBe(false);
  });
});
