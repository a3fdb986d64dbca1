import { describe, expect, it } from 'vitest';
import type { Acted } from '../../../src/store/repos/event-state-repo.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const UID = 'leak/2026/a very long uid with spaces, slashes and : colons';
const ignore: Acted = { action: 'ignore', by: 'U1', at: 1_000 };
const remediate: Acted = { action: 'remediate', by: 'U2', at: 2_000 };

describe.each(BACKENDS)('EventStateRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('starts at generation 0 and moves on with each commit, per workspace', async () => {
    const store = await fixture.open();
    const { eventStates } = reposFor(store).repos;
    expect(await eventStates.get('T1', UID)).toEqual({ generation: 0 });
    const lease = await eventStates.begin('T1', UID, 0, ignore, 60_000);
    expect(await eventStates.actingNow('T1', UID, 0)).toEqual(ignore);
    expect(await eventStates.commit('T1', UID, 0, ignore)).toEqual({ generation: 1, last: ignore });
    await lease?.release();
    expect(await eventStates.get('T1', UID)).toEqual({ generation: 1, last: ignore });
    expect(await eventStates.actingNow('T1', UID, 0)).toBeUndefined();
    expect(await eventStates.get('T2', UID)).toEqual({ generation: 0 });
  });

  it('lets exactly one of 50 concurrent clicks on two connections act on a generation', async () => {
    const one = reposFor(await fixture.open()).repos.eventStates;
    const two = reposFor(await fixture.open()).repos.eventStates;
    const leases = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).begin('T1', UID, 0, ignore, 60_000)),
    );
    expect(leases.filter((lease) => lease !== undefined)).toHaveLength(1);
  });

  it('races per workspace, event and generation: different ones never block each other, any uid length', async () => {
    const { eventStates } = reposFor(await fixture.open()).repos;
    const longUid = `source_code/github/${'a/'.repeat(500)}.env`;
    const leases = await Promise.all([
      eventStates.begin('T1', UID, 0, ignore, 60_000),
      eventStates.begin('T2', UID, 0, ignore, 60_000),
      eventStates.begin('T1', `${UID}-other`, 0, ignore, 60_000),
      eventStates.begin('T1', longUid, 0, ignore, 60_000),
    ]);
    expect(leases.every((lease) => lease !== undefined)).toBe(true);
    expect(await eventStates.begin('T1', longUid, 0, ignore, 60_000)).toBeUndefined();
  });

  it('refuses a generation that has moved on, even once its lease is released', async () => {
    const { eventStates } = reposFor(await fixture.open()).repos;
    const lease = await eventStates.begin('T1', UID, 0, ignore, 60_000);
    await eventStates.commit('T1', UID, 0, ignore);
    await lease?.release();
    expect(await eventStates.begin('T1', UID, 0, remediate, 60_000)).toBeUndefined();
    expect(await eventStates.begin('T1', UID, 1, remediate, 60_000)).toBeDefined();
  });

  it('after a failed call, abandon and release let the next click try the same generation', async () => {
    const { eventStates } = reposFor(await fixture.open()).repos;
    const lease = await eventStates.begin('T1', UID, 0, ignore, 60_000);
    expect(await eventStates.begin('T1', UID, 0, remediate, 60_000)).toBeUndefined();
    await eventStates.abandon('T1', UID, 0);
    expect(await eventStates.actingNow('T1', UID, 0)).toBeUndefined();
    await lease?.release();
    expect(await eventStates.begin('T1', UID, 0, remediate, 60_000)).toBeDefined();
    expect(await eventStates.actingNow('T1', UID, 0)).toEqual(remediate);
  });

  it('shows the marker of a live lease only: renewing keeps both, a crashed holder loses both', async () => {
    const store = await fixture.open();
    const { eventStates } = reposFor(store).repos;
    const lease = await eventStates.begin('T1', UID, 0, ignore, 10_000);
    fixture.clock.advance(9_000);
    expect(await lease?.renew()).toBe(true);
    fixture.clock.advance(9_000);
    expect(await eventStates.actingNow('T1', UID, 0)).toEqual(ignore);
    expect(await eventStates.begin('T1', UID, 0, remediate, 10_000)).toBeUndefined();
    fixture.clock.advance(1_000);
    expect(await eventStates.actingNow('T1', UID, 0)).toBeUndefined();
    const next = await eventStates.begin('T1', UID, 0, remediate, 10_000);
    expect(next).toBeDefined();
    expect(await lease?.renew()).toBe(false);
    expect(await eventStates.actingNow('T1', UID, 0)).toEqual(remediate);
  });

  it('keeps states for 30 days on the clock', async () => {
    const store = await fixture.open();
    const { eventStates } = reposFor(store).repos;
    await eventStates.commit('T1', UID, 0, ignore);
    fixture.clock.advance(30 * 24 * 3600_000 - 1);
    expect((await eventStates.get('T1', UID)).generation).toBe(1);
    fixture.clock.advance(1);
    expect(await eventStates.get('T1', UID)).toEqual({ generation: 0 });
  });
});
