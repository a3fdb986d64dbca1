/**
 * The product's jobs, working in the playground as a newcomer tries them (in process, through the page's
 * JSON API): the workspace is connected through the store as an admin would connect it (tenant switch,
 * connect and disconnect work), a digest with content is posted by "Run digests now", an export arrives as
 * a CSV file in the DM, a picked file is hosted like Slack hosts it and goes to the sandbox, new events
 * trickle in on the injected timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import { createLogger } from '../../../../src/kernel/logger.js';
import { guardSlackContract } from '../../../../test/support/slack-contract.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

interface State {
  version: number;
  unchanged?: boolean;
  entries?: { id: string; kind: string; html: string }[];
  modal?: string;
  conversations?: { id: string; name: string; kind: string; unread: number }[];
}

const GENERAL = 'C0GENERAL';
let pg: RunningPlayground;
let trickle: (() => void) | undefined;
const manualTicker: Ticker = {
  every(_ms, fn) {
    trickle = fn;
    return { cancel: () => undefined };
  },
};

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0' },
    createLogger: () => createLogger({ level: 'warn', write: () => {} }),
    ticker: manualTicker,
  });
  // Everything the playground sends its fake Slack is held to Slack's contract, as in every stack test.
  guardSlackContract(pg.slack);
});
afterAll(async () => {
  await pg?.stop();
});

const api = (path: string, body: unknown) =>
  fetch(new URL(`/playground/api/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function state(conversation = GENERAL, since = 0): Promise<State> {
  const res = await fetch(new URL(`/playground/api/state?tz=UTC&c=${conversation}&since=${since}`, pg.url));
  return (await res.json()) as State;
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs a command in a conversation and waits for an entry whose text matches. */
async function run(command: string, match: RegExp, conversation = GENERAL): Promise<string> {
  const since = (await state(conversation)).version;
  await api('command', { text: `/vigil ${command}`, conversation });
  return until(async () => {
    const s = await state(conversation, since);
    return (s.entries ?? []).map((e) => text(e.html)).find((t) => match.test(t));
  });
}

/** A connect link's page, submitted as the admin's browser would: the key, then the tenant. */
async function submitConnectPage(link: string, apiKey: string, tenantId: number): Promise<void> {
  const url = link.replace('localhost', '127.0.0.1');
  const region = new URL(pg.sim.url).host;
  for (const fields of [
    { step: 'key', api_key: apiKey, region },
    { step: 'tenant', tenant_id: String(tenantId) },
  ]) {
    const token = /name="form_token" value="([^"]+)"/.exec(await (await fetch(url)).text())?.[1] ?? '';
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'null',
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ form_token: token, ...fields }).toString(),
    });
    expect(res.status).toBe(200);
  }
}

/** `/vigil connect` in #general: the link to the one-time page, and the whole answer. */
async function connectLink(): Promise<{ link: string; html: string }> {
  const since = (await state()).version;
  await api('command', { text: '/vigil connect', conversation: GENERAL });
  const html = await until(async () => {
    const st = await state(GENERAL, since);
    const all = (st.entries ?? []).map((e) => e.html).join('\n');
    return /\/connect\/[A-Za-z0-9_-]+/.test(all) && all.includes('simulated API') ? all : undefined;
  });
  return { link: /href="(http:\/\/[^"]+\/connect\/[A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? '', html };
}

describe('the connection', () => {
  it('is made through the connect page as an admin would, not taken from VIGIL_API_KEY', async () => {
    const status = await run('status', /Vigil is connected/);
    expect(status).toContain('Connected by @adam');
    expect(status).toContain('Acme Production');
    expect(status).not.toContain('VIGIL_API_KEY');
    expect(await run('audit', /connection\.connect|connected/i)).toMatch(/@adam/);
  });

  it('switches tenant, and back', async () => {
    expect(await run('tenant 2002', /now uses tenant/)).toContain('Acme Subsidiaries (id 2002)');
    expect(await run('status', /Vigil is connected/)).toContain('Acme Subsidiaries');
    await run('tenant 2001', /now uses tenant/);
  });

  it('gives a connect link to a page that works locally, and tells which simulated key to paste', async () => {
    const { link, html } = await connectLink();
    expect(html).toContain(pg.sim.keys[0]?.apiKey ?? '?');
    const page = await fetch(link.replace('localhost', '127.0.0.1'));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/API key/i);
  });

  it('disconnects after the confirmation, and connects again through the page', async () => {
    const since = (await state()).version;
    await api('command', { text: '/vigil disconnect', conversation: GENERAL });
    const prompt = await until(async () => {
      const st = await state(GENERAL, since);
      return (st.entries ?? []).find((e) => e.html.includes('Disconnect'));
    });
    const button = /data-block-id="([^"]+)" data-action-id="(connection_disconnect_confirm)"/.exec(
      prompt.html,
    );
    expect(button).not.toBeNull();
    await api('action', { entryId: prompt.id, blockId: button?.[1], actionId: button?.[2], values: [] });
    // The click's work finishes after its ack: asked again until status says so.
    const status = await until(async () => {
      const answer = await run('status', /connected/i);
      return /not connected/i.test(answer) ? answer : undefined;
    });
    expect(status).toContain('/vigil connect');
    // Back as it was, for what follows.
    const key = pg.sim.keys[0];
    if (!key) throw new Error('no key');
    await submitConnectPage((await connectLink()).link, key.apiKey, key.defaultTenantId);
    expect(await run('status', /Vigil is connected/)).toContain('Acme Production');
  });
});

describe('digests', () => {
  it('Run digests now posts this channel’s digest, with content, and says when the next is due', async () => {
    await run('digest add always', /created/);
    const since = (await state()).version;
    await api('digests', { conversation: GENERAL });
    const s = await until(async () => {
      const st = await state(GENERAL, since);
      const entries = st.entries ?? [];
      return entries.some((e) => e.kind === 'channel') && entries.some((e) => e.kind === 'note')
        ? st
        : undefined;
    });
    const digest = text(s.entries?.find((e) => e.kind === 'channel')?.html ?? '');
    expect(digest).toMatch(/Vigil digest/i);
    expect(digest).toMatch(/critical|high|medium/);
    expect(digest).not.toMatch(/No new events/i);
    expect(text(s.entries?.find((e) => e.kind === 'note')?.html ?? '')).toMatch(
      /today.{1,6}s digest posted now.*next due/,
    );
  });
});

describe('the DM with Vigil', () => {
  it('receives an export as a CSV file, with a preview and a download', async () => {
    const dm = (await state()).conversations?.find((c) => c.kind === 'im');
    if (!dm) throw new Error('no DM');
    const since = (await state()).version;
    await api('command', { text: '/vigil creds domain acme.example', conversation: GENERAL });
    const results = await until(async () => {
      const st = await state(GENERAL, since);
      return (st.entries ?? []).find((e) => e.html.includes('Export CSV'));
    });
    const button = /data-block-id="([^"]+)" data-action-id="([^"]+)" data-type="button">Export CSV/.exec(
      results.html,
    );
    await api('action', { entryId: results.id, blockId: button?.[1], actionId: button?.[2], values: [] });
    const file = await until(async () => {
      const st = await state(dm.id);
      return (st.entries ?? []).find((e) => e.kind === 'file');
    });
    expect(file.html).toContain('<th>identity</th>');
    expect(text(file.html)).toContain('@acme.example');
    const href = /href="(\/playground\/files\/[^"]+)"/.exec(file.html)?.[1] ?? '';
    const download = await fetch(new URL(href, pg.url));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="vigil-credentials/);
    expect((await download.text()).split('\n')[0]).toContain('identity');
    // An id the page never showed is not served.
    expect((await fetch(new URL('/playground/files/F0NOPE0001/x.csv', pg.url))).status).toBe(404);
  });
});

describe('upload', () => {
  it('hosts the picked file as Slack does, then sends it to the sandbox from the form', async () => {
    const before = pg.sim.state.uploads.length;
    const since = (await state()).version;
    await api('command', { text: '/vigil upload', conversation: GENERAL });
    const modal = await until(async () => (await state(GENERAL, since)).modal || undefined);
    const viewId = /data-view-id="([^"]+)"/.exec(modal)?.[1];
    const input = /data-block-id="([^"]+)" data-action-id="([^"]+)" data-type="file_input"/.exec(modal);
    const hosted = (await (
      await api('file', {
        name: 'sample.txt',
        type: 'text/plain',
        data: Buffer.from('hello sandbox').toString('base64'),
      })
    ).json()) as { ok: boolean; file: { id: string } };
    expect(hosted.ok).toBe(true);
    await api('submit', {
      viewId,
      inputs: [{ blockId: input?.[1], actionId: input?.[2], values: [hosted.file.id] }],
    });
    await until(async () => (pg.sim.state.uploads.length > before ? true : undefined));
    // Vigil fetched it as a bot does: files.info, then the private URL with its token.
    expect(pg.slack.downloads.some((d) => d.fileId === hosted.file.id && d.served)).toBe(true);
    expect(
      await until(async () => ((await state()).modal ?? '').match(/sent to the sandbox/)?.[0]),
    ).toBeTruthy();
  });
});

describe('new events', () => {
  it('trickle in on the timer, for the tenant in use', async () => {
    const before = pg.sim.state.events.length;
    trickle?.();
    await until(async () => (pg.sim.state.events.length > before ? true : undefined));
    const added = pg.sim.state.events.at(-1);
    expect(added?.tenantId).toBe(2001);
    expect(Date.now() - (added?.createdMs ?? 0)).toBeLessThan(60_000);
  });
});
