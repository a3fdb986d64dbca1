/**
 * The playground contains a leaked credential end to end against its simulated Entra ID (in process, through
 * the page's JSON API, as a newcomer clicks): the directory and the connection are there from the start, the
 * credential's *Contain…* shows the person, *Revoke sessions* reaches Graph once, and the credential is then
 * marked remediated in the simulated threat-intel API. Every Graph call held to the published document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticker } from '../../../../src/domain/subscriptions/ticker.js';
import { createLogger } from '../../../../src/kernel/logger.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

interface Entry {
  id: string;
  kind: string;
  html: string;
}

const GENERAL = 'C0GENERAL';
let pg: RunningPlayground;
const quietTicker: Ticker = { every: () => ({ cancel: () => undefined }) };

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0' },
    createLogger: () => createLogger({ level: 'warn', write: () => {} }),
    ticker: quietTicker,
  });
});
afterAll(async () => {
  await pg?.stop();
  expect(pg?.entra.violations ?? []).toEqual([]);
});

const api = (path: string, body: unknown) =>
  fetch(new URL(`/playground/api/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function entries(since: number): Promise<{ version: number; entries: Entry[] }> {
  const res = await fetch(new URL(`/playground/api/state?tz=UTC&c=${GENERAL}&since=${since}`, pg.url));
  const s = (await res.json()) as { version: number; entries?: Entry[] };
  return { version: s.version, entries: s.entries ?? [] };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits for a new entry whose html matches. */
const entryMatching = (since: number, match: RegExp) =>
  until(async () => (await entries(since)).entries.find((e) => match.test(e.html)));

/** Clicks the button labelled `label` in `entry`; resolves with the version before the click. */
async function press(entry: Entry, label: string): Promise<number> {
  const { version } = await entries(0);
  const button = new RegExp(
    `data-block-id="([^"]+)" data-action-id="([^"]+)" data-type="button"(?: data-has-confirm="1")?>${label}`,
  ).exec(entry.html);
  if (!button) throw new Error(`no ${label} in ${entry.html.slice(0, 500)}`);
  await api('action', { entryId: entry.id, blockId: button[1], actionId: button[2], values: [] });
  return version;
}

describe('containment in the playground', () => {
  it('contains a leaked credential against the simulated Entra ID, then marks it remediated', async () => {
    const person = pg.entra.users[0];
    if (!person) throw new Error('the directory is empty');
    const { version } = await entries(0);
    await api('command', { text: `/vigil creds email ${person.mail}`, conversation: GENERAL });
    const results = await entryMatching(version, /Contain…/);

    const card = await entryMatching(await press(results, 'Contain…'), /Revoke sessions/);
    expect(card.html).toContain(person.displayName);
    expect(card.html).toContain('Account enabled');

    const outcome = await entryMatching(await press(card, 'Revoke sessions'), /was done/);
    expect(pg.entra.calls.filter((c) => c.operationId === 'user.revokeSignInSessions')).toHaveLength(1);

    const remediated = await entryMatching(
      await press(outcome, 'Mark remediated in Flare'),
      /marked remediated in Flare/,
    );
    expect(remediated.html).toContain('Credential marked remediated');
    // The audit, as an admin reads it in Slack.
    const before = (await entries(0)).version;
    await api('command', { text: '/vigil audit', conversation: GENERAL });
    const audit = await entryMatching(before, /contain\.revoke/);
    for (const line of ['contain.request', 'contain.revoke', 'remediated leaked credential'])
      expect(audit.html).toContain(line);
  });
});
