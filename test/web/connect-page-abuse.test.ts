/**
 * The connect page under attack, through the real stack: parallel key guessing against the simulated API,
 * cross-site and replayed form posts, and what a copy of the SQLite file reveals while a link is pending.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import {
  formTokenOf,
  getPage,
  linkOf,
  postRaw,
  reachable,
  requestConnect,
  SAME_ORIGIN_HEADERS,
  simHost,
  submitKey,
} from '../e2e/support/connect.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ connect: false, clock: new ManualClock(Date.now()) });
});
afterAll(async () => {
  await stack?.close();
});

async function newLink(): Promise<{ url: string; responseUrl: string }> {
  const { post, responseUrl } = await requestConnect(stack, SEEDED_USERS.admin);
  return { url: reachable(stack, linkOf(post)), responseUrl };
}

async function formToken(url: string): Promise<string> {
  const token = formTokenOf((await getPage(url)).html);
  if (token === undefined) throw new Error('the page has no form token');
  return token;
}

const tokenRequests = () => stack.sim.log.entries.filter((e) => e.path.endsWith('/tokens/generate')).length;
const wrongKey = (i: number) => `fw_sim_wrong${String(i).padStart(2, '0')}${'x'.repeat(30)}`;

describe('parallel key guessing', () => {
  it('lets at most 5 of 25 simultaneous wrong keys reach the API, then the link is dead', async () => {
    const { url } = await newLink();
    // An attacker holding the link loads the page 25 times to collect valid forms, then fires them at once.
    const tokens = await Promise.all(Array.from({ length: 25 }, () => formToken(url)));
    stack.sim.log.clear();
    const pages = await Promise.all(
      tokens.map((token, i) =>
        postRaw(url, { form_token: token, step: 'key', api_key: wrongKey(i), region: simHost(stack) }),
      ),
    );
    expect(tokenRequests()).toBeGreaterThan(0);
    expect(tokenRequests()).toBeLessThanOrEqual(5);
    expect(pages.filter((p) => p.status === 400).length).toBeLessThanOrEqual(4);
    expect(pages.every((p) => p.status === 400 || p.status === 410)).toBe(true);
    expect((await getPage(url)).status).toBe(410);
    const key = stack.sim.keys[0];
    if (!key) throw new Error('the simulated API has no keys');
    expect((await submitKey(url, key.apiKey, simHost(stack))).status).toBe(410);
    expect(tokenRequests()).toBeLessThanOrEqual(5);
  });
});

describe('cross-site posts', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a null Origin from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['no Origin, from a sibling site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a post with %s (403, with what to do) before any key check', async (_name, headers) => {
    const { url } = await newLink();
    const token = await formToken(url);
    stack.sim.log.clear();
    const key = stack.sim.keys[0]?.apiKey ?? '';
    const page = await postRaw(
      url,
      { form_token: token, step: 'key', api_key: key, region: simHost(stack) },
      headers,
    );
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('Vigil only accepts this form from its own page at');
    expect(page.html).toContain(`<code>http://localhost:${stack.vigil.port}</code>`);
    expect(page.html).toContain('Open the link from <code>/vigil connect</code> in Slack exactly as given');
    expect(tokenRequests()).toBe(0);
    // The page itself still works for the admin.
    expect((await getPage(url)).status).toBe(200);
  });

  it('accepts Vigil’s own origin, spelled out or as a same-origin fetch', async () => {
    const { url } = await newLink();
    const own = `http://localhost:${stack.vigil.port}`;
    for (const headers of [{ origin: own }, SAME_ORIGIN_HEADERS]) {
      const token = await formToken(url);
      const page = await postRaw(
        url,
        { form_token: token, step: 'key', api_key: 'x y', region: simHost(stack) },
        headers,
      );
      expect(page.status).toBe(400);
      expect(page.html).toContain('Paste the API key exactly as the portal shows it');
    }
  });
});

describe('per-page form tokens', () => {
  it('refuses a post without a form token, or with one already used, or from another link (403)', async () => {
    const { url } = await newLink();
    const other = await newLink();
    const fields = { step: 'key', api_key: wrongKey(1), region: simHost(stack) };
    stack.sim.log.clear();
    const missing = await postRaw(url, fields);
    expect(missing.status).toBe(403);
    expect(missing.html).toContain('Reload this page to get a fresh form and submit it once.');

    const token = await formToken(url);
    const first = await postRaw(url, { ...fields, form_token: token });
    expect(first.status).toBe(400);
    // The refused page carries a fresh token; the spent one is refused.
    expect(formTokenOf(first.html)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(formTokenOf(first.html)).not.toBe(token);
    expect((await postRaw(url, { ...fields, form_token: token })).status).toBe(403);

    const foreign = await formToken(other.url);
    expect((await postRaw(url, { ...fields, form_token: foreign })).status).toBe(403);
    expect(tokenRequests()).toBe(1);
  });
});

describe('the stored response_url', () => {
  it('is sealed while the link is pending: the raw SQLite file does not contain it', async () => {
    const { url, responseUrl } = await newLink();
    expect((await getPage(url)).status).toBe(200);
    const files = (await readdir(stack.dataDir)).filter((n) => n.startsWith('vigil.sqlite'));
    const bytes = Buffer.concat(
      await Promise.all(files.map((n) => readFile(join(stack.dataDir, n)))),
    ).toString('latin1');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes).not.toContain(new URL(responseUrl).pathname);
    expect(bytes).not.toContain('connect-notice');
  });
});
