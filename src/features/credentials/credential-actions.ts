/**
 * Remediating and ignoring leaked credentials (and the reverses) through `POST …/credentials/actions`, once
 * however many clicks (act-once over a store lease per pair or identity). What the API does decides what
 * Vigil records: remediating marks the pair (`credential_hash`), which also covers identical pairs found
 * later; ignoring marks the identity, so every pair of it. The search does not say either state, so rows
 * show what was done through Vigil, by whom and when. Audited, one entry per click.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CredentialActionType } from '../../api/index.js';
import { ACT_LEASE_MS, actOnceAll } from '../../domain/events/act-once.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import type { Repositories, Store } from '../../store/index.js';
import type { MaskedRow } from './context.js';

/** Kept as long as a decision matters to the people who look at these rows again. */
const STATE_TTL_MS = 365 * 24 * 3600_000;

const MarkSchema = z.object({
  action: z.enum(['remediate', 'unremediate', 'ignore', 'unignore']),
  by: z.string().min(1),
  at: z.number(),
});
export type CredentialMark = z.infer<typeof MarkSchema>;

/** What was last done through Vigil to a row's pair and to its identity. */
export interface CredentialRowState {
  pair?: CredentialMark;
  identity?: CredentialMark;
}

export interface CredentialTarget {
  /** The row's credential id, for the audit log. */
  id: number;
  identity: string;
  /** The API's `credential_hash` of the pair. */
  hash: string;
}

export interface CredentialActOutcome {
  /** Targets this click changed. */
  done: CredentialTarget[];
  /** Targets already in the wanted state, with who put them there. */
  before: { target: CredentialTarget; mark: CredentialMark | undefined }[];
  /** Targets a teammate is changing right now. */
  busy: CredentialTarget[];
  mark: CredentialMark;
}

export interface CredentialActionDeps {
  api: Pick<ApiAccess, 'call'>;
  store: Pick<Store, 'lease'>;
  repos: Pick<Repositories, 'credentialStates' | 'audit'>;
  clock: Clock;
}

const digest = (s: string): string => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/** Remediation belongs to the pair; ignoring to the identity (any case). */
const scopeOf = (action: CredentialActionType): 'pair' | 'identity' =>
  action === 'remediate' || action === 'unremediate' ? 'pair' : 'identity';

function keyOf(scope: 'pair' | 'identity', t: Pick<CredentialTarget, 'identity' | 'hash'>): string {
  return scope === 'pair' ? `pair:${digest(t.hash)}` : `identity:${digest(t.identity.trim().toLowerCase())}`;
}

/** Whether the mark says the state the action sets (remediated, ignored, or neither). */
const isSet = (mark: CredentialMark | undefined): boolean =>
  mark?.action === 'remediate' || mark?.action === 'ignore';

export class CredentialActions {
  constructor(private readonly deps: CredentialActionDeps) {}

  private get records() {
    return this.deps.repos.credentialStates(MarkSchema);
  }

  /** The state of each row (undefined parts: nothing done through Vigil). */
  async statesOf(workspaceId: string, rows: readonly MaskedRow[]): Promise<CredentialRowState[]> {
    return Promise.all(
      rows.map(async (row) => {
        const state: CredentialRowState = {};
        const identity = await this.records.get(
          workspaceId,
          keyOf('identity', { identity: row.identity, hash: '' }),
        );
        if (identity !== undefined) state.identity = identity;
        if (row.credentialHash !== undefined) {
          const pair = await this.records.get(
            workspaceId,
            keyOf('pair', { identity: '', hash: row.credentialHash }),
          );
          if (pair !== undefined) state.pair = pair;
        }
        return state;
      }),
    );
  }

  /**
   * Applies `action` to the targets still needing it, in one call per 100 upstream, recorded and audited;
   * targets sharing a pair or identity count once.
   */
  async act(req: {
    workspaceId: string;
    by: string;
    action: CredentialActionType;
    targets: readonly CredentialTarget[];
    wholePage?: boolean;
  }): Promise<CredentialActOutcome> {
    const { workspaceId, action } = req;
    const scope = scopeOf(action);
    const wanted = action === 'remediate' || action === 'ignore';
    const mark: CredentialMark = { action, by: req.by, at: this.deps.clock.now() };
    const byKey = new Map<string, CredentialTarget>();
    for (const t of req.targets) if (!byKey.has(keyOf(scope, t))) byKey.set(keyOf(scope, t), t);
    const records = this.records;
    const outcome = await actOnceAll([...byKey.keys()], {
      stillDue: async (key) => isSet(await records.get(workspaceId, key)) !== wanted,
      acquire: (key) => this.deps.store.lease(`${workspaceId}:credential:${key}`, ACT_LEASE_MS),
      act: async (won) => {
        const hashes = won.flatMap((k) => byKey.get(k)?.hash ?? []);
        await this.deps.api.call(workspaceId, ({ session }) => session.credentialAction({ action, hashes }));
        for (const key of won) await records.set(workspaceId, key, mark, STATE_TTL_MS);
      },
    });
    const targetOf = (k: string) => byKey.get(k) as CredentialTarget;
    const done = outcome.won.map(targetOf);
    const before = await Promise.all(
      outcome.stale.map(async (k) => ({ target: targetOf(k), mark: await records.get(workspaceId, k) })),
    );
    if (done.length > 0) {
      const first = done[0];
      await this.deps.repos.audit.append({
        teamId: workspaceId,
        userId: req.by,
        action: `credential.${action}`,
        target: String(first?.id ?? ''),
        detail: `${req.wholePage ? 'whole page, ' : ''}from Slack; ${done
          .map((t) => t.identity)
          .join(', ')
          .slice(0, 300)}`,
        ...(done.length > 1 ? { count: done.length, targets: done.map((t) => String(t.id)) } : {}),
      });
    }
    return { done, before, busy: outcome.busy.map(targetOf), mark };
  }
}
