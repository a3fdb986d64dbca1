/**
 * Sending one ask's DM, exactly once, within the workspace's hourly window: claim the ask (`sending`, this
 * instance, now) → is the address the company's, and whose is it (a member, not a guest, bot or deactivated
 * account: else it is skipped, audited) → a place in the hourly window (none: the ask waits, queued) → open
 * the DM and record it → post with the run id in the metadata → record the DM. An ask whose owner died after
 * the DM was opened is first looked for in the DM by its run id, so it is never sent twice.
 */
import { LeaseLostError } from '../../domain/subscriptions/posting.js';

/** The DM is looked for from a little before its claim (clock skew between instances). */
const HISTORY_SLACK_MS = 5 * 60_000;

import { ChannelUnavailableError } from '../../kernel/posting-errors.js';
import { askMessage } from './blocks.js';
import { type AskEngineDeps, auditOf } from './deps.js';
import { type Ask, companyEmail, type SkipReason } from './model.js';
import { ASK_LEASE_MS } from './records.js';

export type SendOutcome = 'sent' | 'skipped' | 'full' | 'busy' | 'failed';

const MAX_RETRY_MS = 30 * 60_000;

const errorOf = (err: unknown) => (err as { data?: { error?: string } }).data?.error;

/** Whether an ask waits for its DM now (queued, or a sending whose retry time has come). */
export function waitsForDm(ask: Ask, now: number): boolean {
  return (ask.state === 'queued' || ask.state === 'sending') && (ask.retryAt ?? 0) <= now;
}

export async function sendDm(deps: AskEngineDeps, workspaceId: string, id: string): Promise<SendOutcome> {
  const { records, slack, clock, owner } = deps;
  const now = clock.now();
  let resumed = false;
  const claim = await records.change(workspaceId, id, async (cur) => {
    if (cur === undefined || !waitsForDm(cur, now)) return undefined;
    if (cur.state === 'sending') {
      const stale = (cur.claimedAt ?? 0) + ASK_LEASE_MS <= now || !(await deps.isAlive(cur.owner ?? ''));
      if (!stale) return undefined;
    }
    resumed = cur.dmChannel !== undefined;
    return { ...cur, state: 'sending', owner, claimedAt: now };
  });
  const ask = claim.ask;
  if (!claim.changed || ask === undefined) return 'busy';
  const save = async (change: Partial<Ask>, drop: (keyof Ask)[] = []): Promise<Ask> => {
    const saved = await records.change(workspaceId, id, (cur) => {
      if (cur?.state !== 'sending' || cur.owner !== owner) throw new LeaseLostError(id);
      const next: Ask = { ...cur, ...change };
      for (const field of drop) delete next[field];
      return next;
    });
    return saved.ask as Ask;
  };
  try {
    let userId = ask.userId;
    if (userId === undefined) {
      const skip = await whyNot(deps, workspaceId, ask);
      if (typeof skip === 'string') return skipped(deps, workspaceId, ask, skip);
      userId = skip.userId;
      await save({ userId });
    }
    if (!(await records.reserve(workspaceId, id, deps.settings.perHour))) {
      await records.change(workspaceId, id, (cur) =>
        cur?.owner === owner ? withoutClaim({ ...cur, state: 'queued' }) : undefined,
      );
      return 'full';
    }
    let dmChannel = ask.dmChannel;
    if (dmChannel === undefined) {
      dmChannel = await slack.openDm(workspaceId, userId);
      await save({ dmChannel });
    }
    const where = { channelId: dmChannel, oldestMs: ask.createdAt - HISTORY_SLACK_MS };
    let ts = resumed ? await slack.findDm(workspaceId, where, ask.runId) : undefined;
    // Not recorded before the post: a crash after it finds the DM by its run id (above).
    ts ??= await slack.post(workspaceId, { channelId: dmChannel }, ask.runId, askMessage(ask));
    await save({ state: 'asked', dmTs: ts, sentAt: clock.now() }, [
      'owner',
      'claimedAt',
      'failures',
      'retryAt',
    ]);
    await deps.audit.append(auditOf(ask, workspaceId, 'dm', `asked <@${userId}>`));
    deps.logger.info('ask-person DM sent', { workspaceId, user: userId });
    return 'sent';
  } catch (err) {
    if (err instanceof LeaseLostError) return 'busy';
    // Deactivated between the lookup and the DM: Slack refuses the conversation.
    if (err instanceof ChannelUnavailableError || errorOf(err) === 'user_disabled')
      return skipped(deps, workspaceId, ask, 'deactivated');
    return failed(deps, workspaceId, id, err);
  }
}

/** The member to ask, or why there is none: the address is not the company's, or Slack's answer. */
async function whyNot(
  deps: AskEngineDeps,
  workspaceId: string,
  ask: Ask,
): Promise<SkipReason | { userId: string }> {
  const domains = await deps.domains(workspaceId);
  if (companyEmail([ask.email], domains) === undefined) return 'not-company';
  // A declined optional scope turns the feature off there: skipped, not an error (users.lookupByEmail would
  // answer missing_scope).
  if (!(await deps.mayLookUpEmails(workspaceId))) return 'no-email-scope';
  const found = await deps.slack.lookup(workspaceId, ask.email);
  return found.kind === 'skip' ? found.reason : { userId: found.userId };
}

async function skipped(
  deps: AskEngineDeps,
  workspaceId: string,
  ask: Ask,
  reason: SkipReason,
): Promise<SendOutcome> {
  await deps.records.change(workspaceId, ask.id, (cur) =>
    cur?.owner === deps.owner ? withoutClaim({ ...cur, state: 'skipped', skipped: reason }) : undefined,
  );
  await deps.audit.append(auditOf(ask, workspaceId, 'skip', `not asked: ${reason}`));
  deps.logger.info('ask-person not sent', { workspaceId, reason });
  return 'skipped';
}

function withoutClaim(ask: Ask): Ask {
  const next = { ...ask };
  delete next.owner;
  delete next.claimedAt;
  return next;
}

/**
 * A failed attempt: the ask keeps its claim's state but none of its time (taken up again once `retryAt`
 * passes, looking for the DM first if one was opened), backing off.
 */
async function failed(
  deps: AskEngineDeps,
  workspaceId: string,
  id: string,
  err: unknown,
): Promise<SendOutcome> {
  const now = deps.clock.now();
  const saved = await deps.records.change(workspaceId, id, (cur) => {
    if (cur?.owner !== deps.owner || cur.state !== 'sending') return undefined;
    const failures = (cur.failures ?? 0) + 1;
    return { ...cur, claimedAt: 0, failures, retryAt: now + Math.min(MAX_RETRY_MS, 30_000 * 2 ** failures) };
  });
  deps.logger.warn('ask-person DM failed', { workspaceId, failures: saved.ask?.failures, err });
  return 'failed';
}
