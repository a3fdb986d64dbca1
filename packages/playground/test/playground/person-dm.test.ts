/**
 * The employee's page of the playground (`/playground/person`), in process: served with the playground's
 * strict headers and its own script, @dana seeded with an address on the tenant's domain and no message yet,
 * and its two actions (a leak, an answer) taken from its own origin only; an answer names a button of a
 * message in her DM, or is refused. The whole loop runs in Chromium: ask-person.browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/kernel/logger.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

let pg: RunningPlayground;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(`/playground/person/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0', LOG_LEVEL: 'warn' },
    createLogger: (config) => createLogger({ level: config.logLevel, write: () => {} }),
  });
});
afterAll(async () => pg?.stop());

describe('the employee’s page', () => {
  it('is served with the playground’s strict headers and its own script', async () => {
    const res = await fetch(new URL('/playground/person', pg.url));
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<script src="/playground/person.js" defer></script>');
    const page = await (await fetch(pg.url)).text();
    expect(page).toContain('href="/playground/person"');
  });

  it('is @dana’s, a member with a company address, with no message from Vigil yet', async () => {
    const dana = pg.slack.users.get('U0DANA001');
    expect(dana?.name).toBe('dana');
    const tenant = pg.sim.keys[0]?.defaultTenantId ?? 0;
    const domains = pg.sim.state.identifiersOf(tenant).filter((i) => i.kind === 'domain');
    expect(domains.map((d) => `dana.smith@${d.name}`)).toContain(dana?.email);
    const state = (await (await fetch(new URL('/playground/person/state?tz=UTC', pg.url))).json()) as {
      name: string;
      messages: unknown[];
    };
    expect(state).toEqual({ name: 'dana', messages: [] });
  });

  it('takes a leak and an answer from its own origin only', async () => {
    const before = pg.sim.state.events.length;
    expect((await post('leak', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post('answer', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect(pg.sim.state.events.length).toBe(before);
    expect((await post('leak', {})).status).toBe(200);
    const added = pg.sim.state.events.at(-1);
    expect(added?.item.metadata.type).toBe('leaked_credential');
    expect(added?.item.highlights?.title?.[0]).toContain('dana.smith@');
  });

  it('refuses an answer that names no button of a message in her DM', async () => {
    const res = await post('answer', {
      ts: '1.000001',
      blockId: 'ask_person',
      actionId: 'ask_person_changed',
    });
    expect(res.status).toBe(400);
  });
});
