/**
 * Finding without an identifier's number, through the real HTTP stack: `/vigil identifiers` (pages of 100
 * read from the contract's list, cached a few minutes on the injected clock, matched locally), `events
 * <name>` (one match, a picker, "did you mean"), `events all` (the tenant feed), and the Events buttons.
 * Every v4 request must validate against the published document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { startVigil } from '../../../src/app/start.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { buttons, createSlackSender, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { SIGNING_SECRET, startStack } from '../../support/stack.js';
import { click, command, IDENTIFIER, waitPostTo } from './support/events-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  // Empty pages every third page, as production sends them: the identifier list must read past them.
  stack = await startStack({ clock, sim: { emptyPageEvery: 3 } });
});
afterAll(async () => {
  expect(v4Problems()).toEqual([]);
  await stack?.close();
});

const TENANT = 2001;
const identifierReads = () =>
  stack.sim.log.entries.filter((e) => e.method === 'GET' && e.path.endsWith('/v4/identifiers/'));
const searches = (suffix: string) =>
  stack.sim.log.entries.filter((e) => e.method === 'POST' && e.path.endsWith(suffix));
function v4Problems(): string[] {
  return contractProblems(stack.sim.log.entries.map(fromSimLog).filter((r) => /^\/[^/]+\/v4\//.test(r.path)));
}

describe('/vigil identifiers', () => {
  it('lists the names, types and ids with an Events button each, reading pages of 100 once', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'identifiers');
    const text = textOf(post.body);
    expect(String(post.body.text)).toBe('Identifiers 1–3 of 3.');
    expect(text).toContain('`acme.example`\nDomain · ID `3001`');
    expect(text).toContain('`Project Nightjar`\nKeyword · ID `3002`');
    expect(text).toContain('`ceo@acme.example`\nE-mail · ID `3003`');
    expect(buttons(post.body).map((b) => [b.action_id, b.value])).toEqual([
      ['identifier_events:0', '3001'],
      ['identifier_events:1', '3003'],
      ['identifier_events:2', '3002'],
    ]);
    expect(identifierReads().map((e) => e.query)).toEqual([{ size: '100' }]);

    // Within the cache's few minutes no other read; past them, one.
    await command(stack, 'identifiers type:email');
    expect(identifierReads()).toHaveLength(1);
    clock.advance(5 * 60_000 + 1);
    const again = await command(stack, 'identifiers type:email');
    expect(identifierReads()).toHaveLength(2);
    expect(textOf(again.post.body)).toContain('`ceo@acme.example`');
    expect(textOf(again.post.body)).not.toContain('acme.example`\nDomain');
  });

  it('pages through hundreds of identifiers (empty pages included) and matches words locally', async () => {
    for (let n = 1; n <= 230; n++)
      stack.sim.state.addIdentifier(TENANT, `vendor-${String(n).padStart(3, '0')}.example`, 'domain');
    clock.advance(5 * 60_000 + 1);
    stack.sim.log.clear();
    const { post } = await command(stack, 'identifiers vendor 01');
    // 230 + 3 identifiers: three pages of 100 (and the empty pages production interleaves).
    const reads = identifierReads();
    expect(reads.filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(reads.every((e) => e.query.size === '100')).toBe(true);
    expect(reads.slice(1).every((e) => typeof e.query.from === 'string')).toBe(true);
    // Every word must be in the name: vendor-010 … vendor-019, then vendor-001, vendor-101…
    expect(String(post.body.text)).toMatch(/^Identifiers 1–10 of \d+\.$/);
    const next = await click(stack, post.body, 'identifiers_next');
    const page2 = await waitPostTo(stack, next.responseUrl);
    expect(String(page2.body.text)).toMatch(/^Identifiers 11–\d+ of \d+\.$/);
    expect(identifierReads().length).toBe(reads.length);
  });

  it('reads the list once for concurrent readers of a cold cache', async () => {
    clock.advance(5 * 60_000 + 1);
    stack.sim.log.clear();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => command(stack, 'identifiers acme', { userId: SEEDED_USERS.admin })),
    );
    expect(new Set(answers.map((a) => textOf(a.post.body))).size).toBe(1);
    const pages = identifierReads().filter((e) => e.query.from === undefined);
    expect(pages).toHaveLength(1);
  });

  it('shares the list with another instance on the same store, and a forgetting by either', async () => {
    clock.advance(5 * 60_000 + 1);
    const other = await startVigil({
      config: stack.config,
      logger: silentLogger,
      host: '127.0.0.1',
      clock,
    });
    try {
      const peer: Stack = {
        ...stack,
        vigil: other,
        sender: createSlackSender({
          receiverUrl: `${other.url}/slack/events`,
          signingSecret: SIGNING_SECRET,
        }),
      };
      stack.sim.log.clear();
      await command(stack, 'identifiers nightjar');
      let reads = identifierReads().length;
      expect(reads).toBeGreaterThan(0);
      // The other instance answers from the list this one read: no request of the organization's budget.
      const { post } = await command(peer, 'identifiers acme');
      expect(textOf(post.body)).toContain('`acme.example`\nDomain · ID `3001`');
      expect(identifierReads()).toHaveLength(reads);

      // Forgotten there (an identifier added through it): this instance reads the list again.
      await command(peer, 'identifiers add domain late-one.example', { userId: SEEDED_USERS.admin });
      expect(textOf((await command(stack, 'identifiers late-one')).post.body)).toContain(
        '`late-one.example`',
      );
      expect(identifierReads().length).toBeGreaterThan(reads);
      reads = identifierReads().length;
      expect(textOf((await command(peer, 'identifiers late-one')).post.body)).toContain('`late-one.example`');
      expect(identifierReads()).toHaveLength(reads);

      // Forgotten here and read again within the same millisecond (the clock has not moved): the other
      // instance, holding the list of that same millisecond, still tells the new read from the old.
      await command(stack, 'identifiers add domain late-two.example', { userId: SEEDED_USERS.admin });
      expect(textOf((await command(stack, 'identifiers late-two')).post.body)).toContain(
        '`late-two.example`',
      );
      reads = identifierReads().length;
      expect(textOf((await command(peer, 'identifiers late-two')).post.body)).toContain('`late-two.example`');
      expect(identifierReads()).toHaveLength(reads);
    } finally {
      await other.stop();
    }
  });

  it('runs the events search of the identifier whose Events button is clicked', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'identifiers nightjar');
    const clicked = await click(stack, post.body, 'identifier_events:0');
    const results = await waitPostTo(stack, clicked.responseUrl);
    expect(results.body.replace_original).toBe(false);
    expect(String(results.body.text)).toContain('identifier Project Nightjar (3002)');
    expect(searches(`/v4/events/identifiers/${IDENTIFIER.keyword}/_search`)).toHaveLength(1);
  });
});

describe('/vigil events <name>', () => {
  it('searches the one identifier of that name, like events <id>', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'events ACME.example severity:high');
    expect(String(post.body.text)).toContain('identifier acme[.]example (3001)');
    const [search] = searches(`/v4/events/identifiers/${IDENTIFIER.domain}/_search`);
    expect((search?.body as { filters?: unknown } | undefined)?.filters).toEqual({ severity: 'high' });
  });

  it('takes a name of several words, typed bare or quoted', async () => {
    const bare = await command(stack, 'events Project Nightjar since:30d');
    expect(String(bare.post.body.text)).toContain('identifier Project Nightjar (3002)');
    const quoted = await command(stack, 'events "project nightjar"');
    expect(String(quoted.post.body.text)).toContain('identifier Project Nightjar (3002)');
  });

  it('offers a picker when several match, keeping the filters for the chosen one', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'events acme severity:critical');
    expect(String(post.body.text)).toBe('2 identifiers match that name: pick one.');
    expect(textOf(post.body)).toContain('`acme.example`');
    expect(textOf(post.body)).toContain('`ceo@acme.example`');
    expect(searches('/_search')).toHaveLength(0);
    // Ranked: the name starting with the word first.
    expect(buttons(post.body).map((b) => b.action_id)).toEqual(['events_pick:0', 'events_pick:1']);
    expect(textOf(post.body).indexOf('`acme.example`')).toBeLessThan(
      textOf(post.body).indexOf('`ceo@acme.example`'),
    );
    const clicked = await click(stack, post.body, 'events_pick:1');
    const results = await waitPostTo(stack, clicked.responseUrl);
    expect(results.body.replace_original).toBe(true);
    expect(String(results.body.text)).toContain('identifier ceo@acme[.]example (3003)');
    const [search] = searches(`/v4/events/identifiers/${IDENTIFIER.email}/_search`);
    expect((search?.body as { filters?: unknown } | undefined)?.filters).toEqual({ severity: 'critical' });
  });

  it('says "did you mean" when nothing matches, with the close names to search', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'events acme.exmaple');
    expect(String(post.body.text)).toBe(
      'No identifier of this tenant has that name. Did you mean one of these?',
    );
    expect(textOf(post.body)).toContain('Did you mean `acme.example`?');
    const clicked = await click(stack, post.body, 'events_pick:0');
    const results = await waitPostTo(stack, clicked.responseUrl);
    expect(String(results.body.text)).toContain('identifier acme[.]example (3001)');

    const nothing = await command(stack, 'events zzzzzzzz');
    expect(String(nothing.post.body.text)).toBe('No identifier of this tenant has that name.');
    expect(textOf(nothing.post.body)).toContain('`/vigil identifiers` lists them all');
  });

  it('keeps events <identifier-id> exactly as before: no identifier lookup', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, `events ${IDENTIFIER.domain} size:2`);
    expect(String(post.body.text)).toContain(`identifier acme[.]example (${IDENTIFIER.domain})`);
    expect(identifierReads()).toHaveLength(0);
  });
});

describe('/vigil events <name> secret', () => {
  const opened = (triggerId: string) =>
    stack.slack.callsTo('views.open').filter((c) => c.body.trigger_id === triggerId);
  const metadataOf = (call: { body: Record<string, unknown> }) =>
    JSON.parse(String((call.body.view as { private_metadata?: unknown }).private_metadata)) as unknown;

  it('looks an unknown name up, then the chosen identifier’s button opens the private form', async () => {
    clock.advance(5 * 60_000 + 1);
    stack.sim.log.clear();
    const triggerId = stack.slack.triggerId();
    const { post } = await command(stack, 'events acme.example secret', { triggerId });
    // The list was not read yet: no form within the trigger's seconds, but the identifier to open it on.
    expect(opened(triggerId)).toHaveLength(0);
    expect(identifierReads().length).toBeGreaterThan(0);
    expect(textOf(post.body)).toContain('`acme.example` is the identifier below');
    expect(buttons(post.body).map((b) => [b.text, b.value])).toEqual([
      ['Open the private form', '3001:secret'],
    ]);
    const clickTrigger = stack.slack.triggerId();
    await click(stack, post.body, 'Open the private form', { triggerId: clickTrigger });
    const form = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === clickTrigger,
    );
    expect(metadataOf(form)).toEqual({ i: 3001, q: 'secret', c: 'C0GENERAL' });
  });

  it('opens the private form at once when the name is known and is exactly one identifier’s', async () => {
    const triggerId = stack.slack.triggerId();
    const responseUrl = stack.slack.responseUrl();
    stack.sim.log.clear();
    const ack = await stack.sender.slashCommand({
      text: 'events "Project Nightjar" credentials',
      responseUrl,
      triggerId,
    });
    expect(ack.status).toBe(200);
    const form = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    expect(metadataOf(form)).toEqual({ i: 3002, q: 'credentials', c: 'C0GENERAL' });
    // From the stored list: no request to the API, and nothing posted in the channel.
    expect(identifierReads()).toHaveLength(0);
    expect(stack.slack.postsTo(responseUrl)).toHaveLength(0);
  });

  it('offers each identifier a name may mean, or the close names, never opening a form on a guess', async () => {
    const triggerId = stack.slack.triggerId();
    const several = await command(stack, 'events vendor-01 secret', { triggerId });
    expect(opened(triggerId)).toHaveLength(0);
    expect(textOf(several.post.body)).toMatch(
      /identifiers match\* `vendor-01`: pick the one to search for a secret/,
    );
    expect(buttons(several.post.body).length).toBeGreaterThan(1);
    const none = await command(stack, 'events acme.exampel credentials');
    expect(textOf(none.post.body)).toContain(
      'No identifier of this tenant is named `acme.exampel`. Did you mean',
    );
    expect(buttons(none.post.body)[0]?.value).toBe('3001:credentials');
  });
});

describe('/vigil events all', () => {
  it('searches the tenant feed with the same filters and pages on it', async () => {
    stack.sim.log.clear();
    const { post } = await command(stack, 'events all severity:high size:3');
    expect(String(post.body.text)).toMatch(
      /^Events 1–3 for all identifiers · severity:high size:3 · more on the next page$/,
    );
    const feed = searches('/v4/events/tenant/_search');
    expect(feed).toHaveLength(1);
    expect(feed[0]?.body).toEqual({ filters: { severity: 'high' }, size: 3 });
    expect(searches('/v4/events/identifiers/').length).toBe(0);
    // Events of several identifiers come back.
    const next = await click(stack, post.body, 'events_next_page');
    const page2 = await waitPostTo(stack, next.responseUrl);
    expect(String(page2.body.text)).toMatch(/^Events 4–6 for all identifiers/);
    const pages = searches('/v4/events/tenant/_search');
    expect(pages).toHaveLength(2);
    expect(typeof (pages[1]?.body as { from?: unknown } | undefined)?.from).toBe('string');
  });
});
