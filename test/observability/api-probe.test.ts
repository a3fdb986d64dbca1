/**
 * `/readyz`'s probe of the API across instances: several Vigil instances on one store (SQLite and Redis, each
 * instance its own connection) ask the API once per 30 s between them, and every instance answers from what
 * that one probe saw. The calls are the targets' own (counted here); the store, its claim and the record are
 * real.
 */
import { describe, expect, it } from 'vitest';
import { apiProbeCheck } from '../../src/observability/api-probe.js';
import type { CheckResult } from '../../src/observability/readiness.js';
import { ApiProbeRepo } from '../../src/store/repos/api-probe-repo.js';
import { BACKENDS, useStoreFixture } from '../store/support/backends.js';

describe.each(BACKENDS)('the API probe shared by instances on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('asks once per 30 s whichever instance is probed, and each answers from that probe', async () => {
    let calls = 0;
    let answering = true;
    const host = 'api.flare.io';
    const reachability = {
      of: (): CheckResult =>
        answering ? { ok: true } : { ok: false, reason: `${host} its last call got no answer` },
    };
    const instance = async () =>
      apiProbeCheck({
        clock: fixture.clock,
        probes: new ApiProbeRepo(await fixture.open()),
        targets: async () => [{ host, call: async () => ++calls }],
        reachability,
      });
    const instances = [await instance(), await instance(), await instance()];
    // One after another, as probes arrive: whichever comes first when the outcome is due asks.
    const probeAll = async () => {
      const results = [];
      for (const i of instances) results.push(await i.run());
      return results;
    };

    expect(await probeAll()).toEqual(instances.map(() => ({ [`api-probe:${host}`]: { ok: true } })));
    expect(calls).toBe(1);
    fixture.clock.advance(20_000);
    await probeAll();
    expect(calls).toBe(1);

    answering = false;
    fixture.clock.advance(10_000);
    // Another instance comes first this time.
    const first = instances.shift();
    if (first) instances.push(first);
    const down = await probeAll();
    expect(calls).toBe(2);
    for (const results of down)
      expect(results[`api-probe:${host}`]).toEqual({
        ok: false,
        reason: `${host} its last call got no answer (the token test, asked by /readyz)`,
      });
  });
});
