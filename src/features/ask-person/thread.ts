/**
 * What comes back to the alert: each answer as a reply in its thread, and the one escalation (no answer in
 * time, or the member left). Each reply is an outbox entry in the ask's record: owed first (with its run id),
 * claimed just before chat.postMessage, recorded posted (its ts) just after; a claim, a failure and a lost
 * lease each settle it once across retries and instances.
 *
 * Exactly once is out of reach across a crash between Slack taking the post and the record: chat.postMessage
 * takes no idempotency key (docs.slack.dev/reference/methods/chat.postMessage lists none; `client_msg_id` is
 * not among its arguments), and finding the reply again would mean reading the channel's thread
 * (`conversations.replies`, a history scope Vigil does not hold, rationed besides: issue 43). So the bound:
 * a reply whose claim was left by a dead (or stalled) owner is in doubt and posted again, once for that
 * crash (or lost answer), said in the log, carrying the same run id in its metadata so a repeat can be told;
 * a post Slack refused is owed again, not in doubt, and never repeats. The DM, which Vigil may read back
 * (`im:history`), is never sent twice (dm.ts).
 */
import { LeaseLostError } from '../../domain/subscriptions/posting.js';
import { ChannelUnavailableError, SlackRateLimitedError } from '../../kernel/posting-errors.js';
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
  let inDoubt = false;
  const claim = await records.change(workspaceId, id, async (cur) => {
    const post = cur === undefined ? undefined : postOf(cur, which);
    if (cur === undefined || post === undefined || post.state === 'posted') return undefined;
    if (post.state === 'posting') {
      const stale = (post.claimedAt ?? 0) + ASK_LEASE_MS <= now || !(await deps.isAlive(post.owner ?? ''));
      if (!stale) return undefined;
      // Left claimed by a crash, or by an answer that never came: Slack may have taken it.
      inDoubt = true;
    }
    const attempts = (post.attempts ?? 0) + 1;
    return withPost(cur, which, { ...post, state: 'posting', owner, claimedAt: now, attempts });
  });
  const ask = claim.ask;
  const post = ask === undefined ? undefined : postOf(ask, which);
  if (!claim.changed || ask === undefined || post === undefined) return false;
  const where = { channelId: ask.alert.channelId, threadTs: ask.alert.ts };
  if (inDoubt)
    deps.logger.warn(
      'ask-person reply in flight at a crash is posted again; it may show twice in the thread',
      {
        workspaceId,
        attempt: post.attempts,
      },
    );
  try {
    const ts = await slack.post(workspaceId, where, post.runId, replyOf(deps, ask, which));
    await records.change(workspaceId, id, (cur) => {
      const mine = cur === undefined ? undefined : postOf(cur, which);
      if (cur === undefined || mine?.state !== 'posting' || mine.owner !== owner)
        throw new LeaseLostError(id);
      const done: OwedPost = {
        runId: mine.runId,
        state: 'posted',
        ts,
        ...(mine.attempts === undefined ? {} : { attempts: mine.attempts }),
      };
      return withPost(cur, which, done);
    });
    return true;
  } catch (err) {
    if (err instanceof LeaseLostError) return false;
    // Taken up again at the next tick: owed again when Slack refused it (not posted), else in doubt (the
    // answer was lost: Slack may have taken it).
    const refused =
      err instanceof SlackRateLimitedError || err instanceof ChannelUnavailableError || errorOf(err);
    await records.change(workspaceId, id, (cur) => {
      const mine = cur === undefined ? undefined : postOf(cur, which);
      if (cur === undefined || mine?.state !== 'posting' || mine.owner !== owner) return undefined;
      const { runId, attempts } = mine;
      const owed: OwedPost = { runId, state: 'pending', ...(attempts === undefined ? {} : { attempts }) };
      return withPost(cur, which, refused ? owed : { ...mine, claimedAt: 0 });
    });
    deps.logger.warn('ask-person reply in the alert thread failed', { workspaceId, err });
    return false;
  }
}

const errorOf = (err: unknown) => (err as { data?: { error?: string } }).data?.error !== undefined;

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
