/**
 * What comes back to the alert: each answer as a reply in its thread, and the one escalation (no answer in
 * time, or the member left). Each reply is owed first (recorded with its run id), then claimed, posted with
 * the run id in its metadata and recorded; a claim whose owner died is taken over by looking for the run id
 * among the thread's replies first, so each reply is posted once across crashes and instances.
 */
import { LeaseLostError } from '../../domain/subscriptions/posting.js';
import { answerReply, escalationReply, type Message } from './blocks.js';
import { type AskEngineDeps, auditOf } from './deps.js';
import {
  type Ask,
  awaitingAnswer,
  type OwedPost,
  owedPosts,
  type PostRef,
  postOf,
  withPost,
} from './model.js';
import { ASK_LEASE_MS } from './records.js';

/** Posts what an ask still owes the alert's thread; how many were posted. */
export async function settlePosts(deps: AskEngineDeps, workspaceId: string, ask: Ask): Promise<number> {
  let posted = 0;
  for (const { which } of owedPosts(ask)) {
    if (await settlePost(deps, workspaceId, ask.id, which)) posted++;
  }
  return posted;
}

async function settlePost(
  deps: AskEngineDeps,
  workspaceId: string,
  id: string,
  which: PostRef,
): Promise<boolean> {
  const { records, slack, owner } = deps;
  const now = deps.clock.now();
  const claim = await records.change(workspaceId, id, async (cur) => {
    const post = cur === undefined ? undefined : postOf(cur, which);
    if (cur === undefined || post === undefined || post.state === 'posted') return undefined;
    if (post.state === 'posting') {
      const stale = (post.claimedAt ?? 0) + ASK_LEASE_MS <= now || !(await deps.isAlive(post.owner ?? ''));
      if (!stale) return undefined;
    }
    return withPost(cur, which, { ...post, state: 'posting', owner, claimedAt: now });
  });
  const ask = claim.ask;
  const post = ask === undefined ? undefined : postOf(ask, which);
  if (!claim.changed || ask === undefined || post === undefined) return false;
  const where = { channelId: ask.alert.channelId, threadTs: ask.alert.ts };
  try {
    // A channel's thread is not read back (Vigil holds no channel history scope, issue 43): a reply Slack took
    // just before a crash is posted again, as an alert is; the DM itself is never sent twice (dm.ts).
    const ts = await slack.post(workspaceId, where, post.runId, replyOf(deps, ask, which));
    await records.change(workspaceId, id, (cur) => {
      const mine = cur === undefined ? undefined : postOf(cur, which);
      if (cur === undefined || mine?.state !== 'posting' || mine.owner !== owner)
        throw new LeaseLostError(id);
      const done: OwedPost = { runId: mine.runId, state: 'posted', ts };
      return withPost(cur, which, done);
    });
    return true;
  } catch (err) {
    if (err instanceof LeaseLostError) return false;
    // Taken up again at the next tick.
    await records.change(workspaceId, id, (cur) => {
      const mine = cur === undefined ? undefined : postOf(cur, which);
      if (cur === undefined || mine?.state !== 'posting' || mine.owner !== owner) return undefined;
      return withPost(cur, which, { ...mine, claimedAt: 0 });
    });
    deps.logger.warn('ask-person reply in the alert thread failed', { workspaceId, err });
    return false;
  }
}

function replyOf(deps: AskEngineDeps, ask: Ask, which: PostRef): Message {
  if (which === 'escalation') {
    const hours = Math.round(deps.settings.escalateMs / 3_600_000);
    return escalationReply(ask, ask.escalation?.reason ?? 'no-answer', hours);
  }
  const answer = ask.answers[which.answer];
  return answerReply(ask, answer?.kind ?? 'help', answer?.at ?? deps.clock.now());
}

/**
 * An ask with no answer in time is escalated once: the subscription's group is mentioned, or, when the
 * member has left meanwhile, that is noted instead (they are not chased). True when it was escalated now.
 */
export async function escalateIfDue(deps: AskEngineDeps, workspaceId: string, ask: Ask): Promise<boolean> {
  const now = deps.clock.now();
  if (!awaitingAnswer(ask) || (ask.sentAt ?? now) + deps.settings.escalateMs > now) return false;
  const gone = await deps.slack.isGone(workspaceId, ask.userId ?? '');
  const reason = gone ? ('left' as const) : ('no-answer' as const);
  const changed = await deps.records.change(workspaceId, ask.id, (cur) =>
    cur === undefined || !awaitingAnswer(cur)
      ? undefined
      : { ...cur, escalation: { reason, post: { runId: `${cur.runId}.e`, state: 'pending' } } },
  );
  if (!changed.changed || changed.ask === undefined) return false;
  await deps.audit.append(
    auditOf(ask, workspaceId, reason === 'left' ? 'left' : 'escalate', `no answer from <@${ask.userId}>`),
  );
  await settlePosts(deps, workspaceId, changed.ask);
  return true;
}
