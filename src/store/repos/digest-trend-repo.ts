/**
 * What each digest run reported, per subscription, for its trend chart and "what changed" paragraph: per run
 * (keyed by its local date) the new events grouped by severity and identifier, and the uids it showed (to tell
 * what is still open). Writing a run again replaces it, so a retried post never counts twice. Runs older
 * than the longest trend (12 weeks and a margin) are dropped on each write. A damaged record is set aside like
 * any other (the digest posts without its trend until an admin removes it).
 */
import { z } from 'zod';
import type { Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord, updateRecord } from './records.js';

/** Uids kept per run and in all: enough to tell what is open without growing with a flood. */
const MAX_UIDS_PER_RUN = 300;
const MAX_RUNS = 100;

const GroupSchema = z.object({
  severity: z.string().max(20),
  /** 0: no identifier named. */
  id: z.number().int().nonnegative(),
  name: z.string().max(300),
  n: z.number().int().positive(),
  /** Milliseconds of the group's newest event. */
  seen: z.number(),
});
const RunSchema = z.object({
  groups: z.array(GroupSchema).max(2000),
  uids: z
    .array(
      z.object({
        uid: z.string().min(1).max(500),
        at: z.number(),
        /** The event's identifier (App Home counts open events by identifier). */
        id: z.number().int().nonnegative().optional(),
        name: z.string().max(300).optional(),
      }),
    )
    .max(MAX_UIDS_PER_RUN),
});
const TrendRecordSchema = z.object({ runs: z.record(z.string(), RunSchema) });
export type DigestTrendRun = z.infer<typeof RunSchema>;
export type DigestTrendRecord = z.infer<typeof TrendRecordSchema>;

/**
 * `current` with the run of `localDate` recorded (or replaced) and runs before `keepFrom` dropped: what
 * `record` stores, and what a digest's preview reads without storing it.
 */
export function withRun(
  current: DigestTrendRecord | undefined,
  localDate: string,
  run: DigestTrendRun,
  keepFrom: string,
): DigestTrendRecord {
  const uids = run.uids.slice(-MAX_UIDS_PER_RUN);
  const kept = Object.entries(current?.runs ?? {}).filter(([d]) => d >= keepFrom && d !== localDate);
  return { runs: Object.fromEntries([...kept, [localDate, { ...run, uids }]].sort().slice(-MAX_RUNS)) };
}

export class DigestTrendRepo {
  constructor(private readonly store: Store) {}

  private get ns() {
    return openNamespace(this.store, 'digest-trend');
  }

  /** Records (or replaces) the run of `localDate`; drops runs before `keepFrom` (a local date). */
  async record(
    teamId: string,
    subscriptionId: string,
    localDate: string,
    run: DigestTrendRun,
    keepFrom: string,
  ) {
    await updateRecord(this.store, this.ns, `${teamId}:${subscriptionId}`, TrendRecordSchema, (current) =>
      withRun(current, localDate, run, keepFrom),
    );
  }

  async get(teamId: string, subscriptionId: string): Promise<DigestTrendRecord | undefined> {
    return readRecord(this.ns, `${teamId}:${subscriptionId}`, TrendRecordSchema);
  }

  async delete(teamId: string, subscriptionId: string): Promise<void> {
    await this.ns.delete(`${teamId}:${subscriptionId}`);
  }
}
