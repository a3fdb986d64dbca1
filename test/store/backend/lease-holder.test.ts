/**
 * A lease names its holder (host/pid): one left by a process of this host that has stopped is taken over at
 * once; a live holder's lease, or one held on another host, still holds until its term ends.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/kernel/logger.js';
import { type LeaseHolder, processHolder } from '../../../src/store/backend/holder.js';
import { openStore } from '../../../src/store/backend/open.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';

/** A pid that ran on this host and has exited. */
function exitedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid ?? 0;
}

describe('processHolder', () => {
  it('says a holder is gone only for an exited process of this host', () => {
    const me = processHolder('host-a', process.pid);
    expect(me.id).toBe(`host-a/${process.pid}`);
    expect(me.isAlive(`host-a/${process.pid}`)).toBe(true);
    expect(me.isAlive(`host-a/${process.ppid}`)).toBe(true);
    expect(me.isAlive(`host-a/${exitedPid()}`)).toBe(false);
    expect(me.isAlive(`host-b/${exitedPid()}`)).toBe(true);
    expect(me.isAlive('not a holder')).toBe(true);
  });

  it('with a boot id, tells an earlier start that had this very pid from this one', () => {
    const me = processHolder('host-a', 1, 'bootB');
    expect(me.id).toBe('host-a/1/bootB');
    expect(me.isAlive('host-a/1/bootB')).toBe(true);
    // A container restarted as pid 1: the holder named pid 1 with another boot id is the dead predecessor.
    expect(me.isAlive('host-a/1/bootA')).toBe(false);
    expect(me.isAlive(`host-a/${exitedPid()}/bootA`)).toBe(false);
    expect(me.isAlive('host-b/1/bootA')).toBe(true);
  });
});

describe.each(BACKENDS)('leases and their holders on %s', (kind) => {
  const fx = useStoreFixture(kind);
  const open = (holder: LeaseHolder) =>
    openStore(fx.url, { logger: silentLogger, cwd: fx.dir, clock: fx.clock, holder });

  it('takes over at once the lease of a stopped process, and only once', async () => {
    const dead = `host-a/${exitedPid()}`;
    const crashed = await open({ id: dead, isAlive: () => true });
    expect(await crashed.lease('ws:event:1', 15_000)).toBeDefined();
    const restarted = await open(processHolder('host-a', process.pid));
    const rival = await open(processHolder('host-a', process.pid));
    const [a, b] = await Promise.all([
      restarted.lease('ws:event:1', 15_000),
      rival.lease('ws:event:1', 15_000),
    ]);
    expect([a, b].filter((l) => l !== undefined)).toHaveLength(1);
    await Promise.all([crashed.close(), restarted.close(), rival.close()]);
  });

  it('leaves the lease of a live holder, or of a holder on another host, until its term ends', async () => {
    const live = await open(processHolder('host-a', process.pid));
    expect(await live.lease('ws:event:2', 15_000)).toBeDefined();
    const elsewhere = await open({ id: `host-b/${exitedPid()}`, isAlive: () => true });
    expect(await elsewhere.lease('ws:event:3', 15_000)).toBeDefined();
    const other = await open(processHolder('host-a', process.pid));
    expect(await other.lease('ws:event:2', 15_000)).toBeUndefined();
    expect(await other.lease('ws:event:3', 15_000)).toBeUndefined();
    fx.clock.advance(15_000);
    expect(await other.lease('ws:event:3', 15_000)).toBeDefined();
    await Promise.all([live.close(), elsewhere.close(), other.close()]);
  });
});
