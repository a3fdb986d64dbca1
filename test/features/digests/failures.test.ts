/**
 * How digests fail: Slack's 429 waits on the clock, API failures back off and are reported after repeated
 * failure, a paused subscription is left alone, `all` reads the tenant-wide feed, and forgetting a workspace
 * removes its subscriptions, outbox and cursors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPORT_AFTER_FAILURES } from '../../../src/domain/subscriptions/posting.js';
import { backoffMs } from '../../../src/features/digests/due.js';
import { DigestService } from '../../../src/features/digests/subscriptions.js';
import { useStoreFixture } from '../../store/support/backends.js';
import {
  CHANNEL,
  digestsIn,
  IDENTIFIER,
  newSubscription,
  type Process,
  startWorld,
  TEAM,
  type World,
} from './support/digest-world.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const DUE = Date.UTC(2026, 5, 20, 7, 0);

describe('digest failures', () => {
  const fixture = useStoreFixture('sqlite');
  let world: World;
  let p: Process;

  beforeEach(async () => {
    world = await startWorld({ openStore: () => fixture.open(), start: START });
    p = await world.scheduler();
    world.clock.set(DUE - 3 * 3600_000);
  });
  afterEach(async () => {
    await world.close();
  });

  function addEvent(uid: string, identifierIds = [IDENTIFIER]) {
    world.sim.state.addEvent({ tenantId: world.tenantId, identifierIds, createdAt: DUE - 3600_000, uid });
  }

  it('waits for Slack after a 429, on the clock, then posts once', async () => {
    await p.repos.digestSubscriptions.add(newSubscription());
    addEvent('leak/rl/1');
    world.slack.failNext('chat.postMessage', { error: 'ratelimited', retryAfter: 30 });
    world.clock.set(DUE);
    expect((await p.scheduler.tick()).outcomes.retry).toBe(1);
    world.clock.advance(10_000);
    expect((await p.scheduler.tick()).outcomes.busy).toBe(1);
    world.clock.advance(21_000);
    expect((await p.scheduler.tick()).outcomes.posted).toBe(1);
    expect(digestsIn(world.slack)).toHaveLength(1);
  });

  it('backs off after API failures and reports the subscription as failing after repeated ones', async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription());
    addEvent('leak/api/1');
    world.sim.faults.add({
      path: /\/events\/identifiers\//,
      times: 10,
      // Not a 404: that one says the identifier is gone, and the digest skips it.
      response: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no' } } },
    });
    world.clock.set(DUE);
    for (let failures = 1; failures <= REPORT_AFTER_FAILURES; failures++) {
      expect((await p.scheduler.tick()).outcomes.failed).toBe(1);
      // Not retried every tick: nothing happens until the backoff has passed.
      world.clock.advance(backoffMs(failures) - 1);
      expect((await p.scheduler.tick()).outcomes.failed).toBe(0);
      world.clock.advance(1);
    }
    const service = new DigestService({
      repos: p.repos,
      events: async () => ({ items: [], next: null }),
      clock: world.clock,
    });
    const [item] = await service.list(TEAM);
    expect(item?.state).toMatchObject({ kind: 'failing', failures: REPORT_AFTER_FAILURES, since: DUE });
    expect(item?.subscription.id).toBe(sub.id);
    world.sim.faults.clear();
    expect((await p.scheduler.tick()).outcomes.posted).toBe(1);
    expect((await service.list(TEAM))[0]?.state).toEqual({ kind: 'active' });
  });

  it('retries after 1, 2, 4… minutes, at most an hour', () => {
    expect([1, 2, 3, 4, 6, 7, 20].map(backoffMs)).toEqual(
      [1, 2, 4, 8, 32, 60, 60].map((minutes) => minutes * 60_000),
    );
  });

  it('skips an identifier that no longer exists, posts the others and says which', async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription({ identifierIds: [IDENTIFIER, 9999] }));
    addEvent('leak/kept/1');
    world.clock.set(DUE);
    expect((await p.scheduler.tick()).outcomes.posted).toBe(1);
    const [digest] = digestsIn(world.slack);
    expect(digest?.uids).toEqual(['leak/kept/1']);
    const blocks = JSON.stringify(world.slack.messages(CHANNEL).at(-1)?.blocks);
    expect(blocks).toContain('identifier 9999 no longer exists: remove it');
    const stored = await p.repos.digestSubscriptions.get(sub.id);
    expect(stored?.missingIdentifiers).toEqual([9999]);
    expect(stored?.failures ?? 0).toBe(0);
  });

  it('leaves a paused subscription alone and catches up once resumed', async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription());
    const service = new DigestService({
      repos: p.repos,
      events: async () => ({ items: [], next: null }),
      clock: world.clock,
    });
    await service.pause(TEAM, sub.id, 'U0ADMIN01');
    addEvent('leak/paused/1');
    world.clock.set(DUE);
    expect((await p.scheduler.tick()).outcomes.posted).toBe(0);
    await service.resume(TEAM, sub.id, 'U0ADMIN01');
    expect((await p.scheduler.tick()).outcomes.posted).toBe(1);
    expect(digestsIn(world.slack)[0]?.uids).toEqual(['leak/paused/1']);
    const audit = await p.repos.audit.recent(TEAM, 5);
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['digest.pause', 'digest.resume']));
  });

  it('reads the tenant-wide feed for `all` identifiers', async () => {
    await p.repos.digestSubscriptions.add(newSubscription({ identifierIds: 'all' }));
    addEvent('leak/all/1', [IDENTIFIER]);
    addEvent('leak/all/2', [IDENTIFIER + 1]);
    world.clock.set(DUE);
    await p.scheduler.tick();
    expect(digestsIn(world.slack)[0]?.uids.sort()).toEqual(['leak/all/1', 'leak/all/2']);
    expect(world.sim.log.entries.some((e) => e.path.endsWith('/v4/events/tenant/_search'))).toBe(true);
  });

  it('forgetting the workspace removes its subscriptions, outbox and cursors', async () => {
    const sub = await p.repos.digestSubscriptions.add(newSubscription());
    addEvent('leak/forget/1');
    world.clock.set(DUE);
    await p.scheduler.tick();
    expect((await p.outbox.get(TEAM, sub.id))?.last).toBeDefined();
    expect((await p.outbox.cursorState(TEAM, sub.id)).seen).toEqual(['leak/forget/1']);
    await p.repos.deleteWorkspaceData(TEAM, { installation: true });
    expect(await p.repos.digestSubscriptions.list(TEAM)).toEqual([]);
    expect(await p.outbox.get(TEAM, sub.id)).toBeUndefined();
    expect((await p.outbox.cursorState(TEAM, sub.id)).seen).toEqual([]);
    expect(CHANNEL).toBe(sub.channelId);
  });
});
