/**
 * Triage of one event through the published `PATCH …/events/tenant/metadata`: its tags, a note, a severity
 * override. Each field has a version in the store that moves on with every change made through Vigil; a form
 * is opened at the versions it shows, and on submission a field changes only if nobody changed it since
 * (act-once over a store lease per field and version, as for Ignore). Two people changing the same field at
 * once: the first lands, once; the second is told who changed it and when. Changes to different fields of
 * the same event both land. Audited, one entry per field.
 */
import { z } from 'zod';
import type { EventMetadataChange, Severity, TenantMetadata } from '../../api/index.js';
import { type Clock, realSleep } from '../../kernel/clock.js';
import { type Lease, type Repositories, type Store, uidKey } from '../../store/index.js';
import type { ApiAccess } from '../workspace-api.js';
import { ACT_LEASE_MS, whileKeptAlive } from './act-once.js';
import { KnownTags } from './known-tags.js';

const TRIAGE_FIELDS = ['tags', 'notes', 'severity'] as const;
export type TriageField = (typeof TRIAGE_FIELDS)[number];

/** A change as a person asked for it; `undefined` leaves a field alone. */
export interface TriageChange {
  tags?: string[];
  /** null (or empty) removes the note. */
  notes?: string | null;
  /** null removes the override. */
  severity?: Severity | null;
}

const TRIAGE_TTL_MS = 30 * 24 * 3600_000;

const WhoSchema = z.object({ by: z.string().min(1), at: z.number() });
const TriageRecordSchema = z.object({
  version: z.number().int().nonnegative(),
  last: WhoSchema.optional(),
});
type TriageRecord = z.infer<typeof TriageRecordSchema>;
type TriageVersions = Partial<Record<TriageField, number>>;

export interface TriageOutcome {
  /** Fields this submission changed, each with its new version. */
  applied: { field: TriageField; version: number }[];
  /** Fields someone else changed since the form was opened: who, when. */
  stale: { field: TriageField; by: string | undefined; at: number | undefined; version: number }[];
  /** Fields someone is changing right now. */
  busy: TriageField[];
  /** The event's metadata as the API answered (when anything was applied). */
  metadata?: TenantMetadata;
  at: number;
}

export interface TriageDeps {
  api: ApiAccess;
  store: Store;
  repos: Pick<Repositories, 'eventTriage' | 'audit' | 'tenantTags'>;
  clock: Clock;
  /** Waiting for a teammate's change to be recorded (real time by default: polls, not a deadline). */
  sleep?: (ms: number) => Promise<void>;
}

/** How long a submission that lost the race waits for the winner's record, in polls. */
const WAIT_POLLS = 40;
const POLL_MS = 100;

function records(deps: Pick<TriageDeps, 'repos'>) {
  return deps.repos.eventTriage(TriageRecordSchema);
}

/** The versions a form is opened at (0 for fields Vigil never changed). */
async function triageVersions(
  deps: Pick<TriageDeps, 'repos'>,
  workspaceId: string,
  uid: string,
): Promise<Record<TriageField, number>> {
  const key = uidKey(uid);
  const out = { tags: 0, notes: 0, severity: 0 };
  for (const field of TRIAGE_FIELDS) {
    out[field] = (await records(deps).get(workspaceId, `${key}:${field}`))?.version ?? 0;
  }
  return out;
}

/** The fields of `change` that differ from what the form showed. */
export function changedFields(
  change: TriageChange,
  shown: { tags: readonly string[]; notes: string | null; severity: Severity | null },
): TriageField[] {
  const out: TriageField[] = [];
  if (change.tags !== undefined) {
    const a = [...new Set(change.tags)].sort();
    const b = [...new Set(shown.tags)].sort();
    if (a.length !== b.length || a.some((t, i) => t !== b[i])) out.push('tags');
  }
  if (change.notes !== undefined && (change.notes || null) !== (shown.notes || null)) out.push('notes');
  if (change.severity !== undefined && change.severity !== shown.severity) out.push('severity');
  return out;
}

interface TriageRequest {
  workspaceId: string;
  uid: string;
  by: string;
  /** The versions the form was opened at. */
  versions: TriageVersions;
  change: TriageChange;
  /** Only these fields of `change` are applied (the ones that differ from what the form showed). */
  fields: readonly TriageField[];
  /** For the audit log: the event's title, and the severity it had before. */
  title?: string;
  severityBefore?: string;
  tenantId?: number | undefined;
}

/** A field this submission may change: nobody changed it since the form, and its lease is held. */
interface WonField {
  field: TriageField;
  from: number;
  lease: Lease;
}

export async function triageEvent(deps: TriageDeps, req: TriageRequest): Promise<TriageOutcome> {
  const outcome: TriageOutcome = { applied: [], stale: [], busy: [], at: deps.clock.now() };
  const won: WonField[] = [];
  for (const field of req.fields) {
    const claimed = await claimField(deps, req, field, outcome);
    if (claimed) won.push(claimed);
  }
  if (won.length === 0) return outcome;
  try {
    await applyFields(deps, req, won, outcome);
  } finally {
    await Promise.all(won.map((w) => w.lease.release()));
  }
  return outcome;
}

/** The field's lease when it is still at the form's version; else says in `outcome` who moved it. */
async function claimField(
  deps: TriageDeps,
  req: TriageRequest,
  field: TriageField,
  outcome: TriageOutcome,
): Promise<WonField | undefined> {
  const { workspaceId } = req;
  const key = uidKey(req.uid);
  const from = req.versions[field] ?? 0;
  const current = async (): Promise<TriageRecord> =>
    (await records(deps).get(workspaceId, `${key}:${field}`)) ?? { version: 0 };
  let now = await current();
  if (now.version === from) {
    // Keyed by workspace first, so forgetting the workspace drops it.
    const lease = await deps.store.lease(`${workspaceId}:triage:${key}:${field}:${from}`, ACT_LEASE_MS);
    if (!lease) {
      // Someone is changing this field now: their record says who, once it lands.
      const moved = await waitForChange(deps, current, from);
      if (moved)
        outcome.stale.push({ field, by: moved.last?.by, at: moved.last?.at, version: moved.version });
      else outcome.busy.push(field);
      return undefined;
    }
    // The previous holder may have committed and released between the first read and the lease.
    now = await current();
    if (now.version === from) return { field, from, lease };
    await lease.release();
  }
  outcome.stale.push({ field, by: now.last?.by, at: now.last?.at, version: now.version });
  return undefined;
}

/** Sends the won fields in one call, moves their versions on, and audits each. */
async function applyFields(
  deps: TriageDeps,
  req: TriageRequest,
  won: WonField[],
  outcome: TriageOutcome,
): Promise<void> {
  const { workspaceId, uid, by } = req;
  const { at } = outcome;
  const key = uidKey(uid);
  const change: EventMetadataChange = {};
  for (const { field } of won) {
    if (field === 'tags') change.tags = [...new Set(req.change.tags ?? [])];
    if (field === 'notes') change.notes = req.change.notes ? req.change.notes : null;
    if (field === 'severity') change.severity = req.change.severity ?? null;
  }
  outcome.metadata = await whileKeptAlive(
    won.map((w) => w.lease),
    async () => {
      const metadata = await deps.api.call(workspaceId, ({ session }) =>
        session.updateEventMetadata(uid, change),
      );
      for (const w of won) {
        await records(deps).set(
          workspaceId,
          `${key}:${w.field}`,
          { version: w.from + 1, last: { by, at } },
          TRIAGE_TTL_MS,
        );
        outcome.applied.push({ field: w.field, version: w.from + 1 });
      }
      return metadata;
    },
  );
  for (const { field } of won) {
    await deps.repos.audit.append({
      teamId: workspaceId,
      userId: by,
      action: `event.${field}`,
      target: uid,
      detail: auditDetail(field, change, req.severityBefore),
      ...(req.title ? { title: req.title } : {}),
    });
  }
  if (change.tags && change.tags.length > 0) {
    await new KnownTags(deps.repos).remember(workspaceId, req.tenantId, change.tags);
  }
}

async function waitForChange(
  deps: Pick<TriageDeps, 'sleep'>,
  current: () => Promise<TriageRecord>,
  from: number,
): Promise<TriageRecord | undefined> {
  const sleep = deps.sleep ?? realSleep;
  for (let i = 0; i < WAIT_POLLS; i++) {
    const now = await current();
    if (now.version !== from) return now;
    await sleep(POLL_MS);
  }
  return undefined;
}

/** What the audit log shows: the tags set, whether a note was set or removed, the severity move. */
function auditDetail(field: TriageField, change: EventMetadataChange, before: string | undefined): string {
  if (field === 'tags') return change.tags?.length ? change.tags.join(', ').slice(0, 300) : '';
  if (field === 'notes') return change.notes ? 'set' : 'removed';
  const from = before ?? '?';
  return change.severity ? `${from} → ${change.severity}` : `${from}, override removed`;
}

/** Tags, a note and a severity override on an event, each field changed once however many submit. */
export class TriageService {
  constructor(private readonly deps: TriageDeps) {}

  versions(workspaceId: string, uid: string) {
    return triageVersions(this.deps, workspaceId, uid);
  }

  /** Who last changed `field` of the event through Vigil, and when. */
  async lastChange(workspaceId: string, uid: string, field: TriageField) {
    return (await records(this.deps).get(workspaceId, `${uidKey(uid)}:${field}`))?.last;
  }

  apply(req: Parameters<typeof triageEvent>[1]) {
    return triageEvent(this.deps, req);
  }
}
