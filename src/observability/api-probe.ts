/**
 * `/readyz` asks the API itself: judged only from the calls people make, it stayed ready for as long as nobody
 * searched after the API died. One cheap authenticated call (the token test) per API host in use, through a
 * connected workspace, at most once per PROBE_EVERY_MS and by one instance at a time (the store's claim);
 * every instance answers from the outcome the last probe recorded in the store.
 */
import type { Clock } from '../kernel/clock.js';
import type { ApiProbeOutcome, ApiProbeRecord, Repositories } from '../store/index.js';
import type { CheckResult, CheckResults, ReadinessCheck } from './readiness.js';

const PROBE_EVERY_MS = 30_000;
const TURN_SLACK_MS = 1_000;

/** A workspace to ask through, for one API host. */
export interface ProbeTarget {
  host: string;
  /** The cheap authenticated call (the token test). */
  call(): Promise<unknown>;
}

export interface ApiProbeDeps {
  clock: Clock;
  probes: Repositories['apiProbes'];
  /** One target per API host in use; none when no workspace is connected. */
  targets(): Promise<ProbeTarget[]>;
  /** What the host's last exchange was (the call just made): answered, or not. */
  reachability: { of(host: string): CheckResult };
}

export function apiProbeCheck(deps: ApiProbeDeps): ReadinessCheck {
  return {
    name: 'api-probe',
    run: async (): Promise<CheckResults> => {
      const last = await deps.probes.last();
      const due = last === undefined || deps.clock.now() - last.at >= PROBE_EVERY_MS;
      // The turn lapses a little before the record is due, so the instance that finds it due may take it.
      const turn = due && (await deps.probes.takeTurn(PROBE_EVERY_MS - TURN_SLACK_MS));
      const record = turn ? await probe(deps) : last;
      return resultsOf(record);
    },
  };
}

async function probe(deps: ApiProbeDeps): Promise<ApiProbeRecord> {
  const at = deps.clock.now();
  const hosts: Record<string, ApiProbeOutcome> = {};
  for (const target of await deps.targets()) {
    // Refused or not, the exchange (or its absence) is what tells: a 401 is an API that answers.
    await target.call().catch(() => {});
    const seen = deps.reachability.of(target.host);
    hosts[target.host] = seen.ok
      ? { ok: true }
      : { ok: false, reason: `${seen.reason ?? target.host} (the token test, asked by /readyz)` };
  }
  const record = { at, hosts };
  await deps.probes.save(record);
  return record;
}

function resultsOf(record: ApiProbeRecord | undefined): CheckResults {
  const results: CheckResults = {};
  for (const [host, outcome] of Object.entries(record?.hosts ?? {}))
    results[`api-probe:${host}`] = outcome.ok ? { ok: true } : { ok: false, reason: outcome.reason ?? host };
  return results;
}
