/**
 * The alert's row says who was asked and what they answered ("<@U…>: changed since"): drawn whenever the
 * ask moved on, and recorded once drawn, so a crash or a Slack failure is drawn again at the next tick.
 */
import type { AskEngineDeps } from './deps.js';
import { type Ask, rowAnswer } from './model.js';

export async function showRow(deps: AskEngineDeps, workspaceId: string, ask: Ask): Promise<boolean> {
  const want = rowAnswer(ask);
  if (deps.rows === undefined || want === undefined || ask.row === want || ask.userId === undefined)
    return false;
  const at = ask.answers.at(-1)?.at ?? ask.sentAt ?? deps.clock.now();
  try {
    await deps.rows.showAsked(
      { workspaceId, channelId: ask.alert.channelId, ts: ask.alert.ts },
      ask.eventUid,
      { user: ask.userId, answer: want, at },
    );
  } catch (err) {
    deps.logger.warn('the alert row could not show the answer; drawn again at the next tick', { err });
    return false;
  }
  await deps.records.change(workspaceId, ask.id, (cur) =>
    cur === undefined || rowAnswer(cur) !== want ? undefined : { ...cur, row: want },
  );
  return true;
}
