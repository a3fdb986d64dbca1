/**
 * `/readyz`'s probe of the API, shared by every instance on the store: whose turn it is to ask (a claim that
 * lapses after the interval, so one instance asks per interval and another takes over when it is gone) and
 * what the last probe saw per API host, which every instance answers from.
 */
import type { Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';

export interface ApiProbeOutcome {
  ok: boolean;
  /** Safe to show: the host and what happened, never a secret. */
  reason?: string;
}

export interface ApiProbeRecord {
  /** When the probe ran (the store's clock). */
  at: number;
  hosts: Record<string, ApiProbeOutcome>;
}

const LAST = 'last';
const TURN = 'api-probe:turn';
/** An outcome this old says nothing any more. */
const KEPT_MS = 10 * 60_000;

export class ApiProbeRepo {
  constructor(private readonly store: Store) {}

  /** The last probe's outcome, or undefined when none ran lately (or the record is unreadable). */
  async last(): Promise<ApiProbeRecord | undefined> {
    const value = (await openNamespace(this.store, 'api-probe')
      .get(LAST)
      .catch(() => undefined)) as Partial<ApiProbeRecord> | undefined;
    if (typeof value?.at !== 'number' || typeof value.hosts !== 'object' || value.hosts === null)
      return undefined;
    return { at: value.at, hosts: value.hosts };
  }

  async save(record: ApiProbeRecord): Promise<void> {
    await openNamespace(this.store, 'api-probe').set(LAST, record, KEPT_MS);
  }

  /** True for one instance per `everyMs`: the one that probes now. */
  takeTurn(everyMs: number): Promise<boolean> {
    return this.store.claim(TURN, everyMs);
  }
}
