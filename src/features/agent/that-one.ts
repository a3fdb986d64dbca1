/**
 * "ignore that one" and "what is this": they act on, or explain, the one event the conversation shows, and only
 * then. The action itself is never done here: the answer is that event's own row with its own button (the one
 * Vigil showed, naming the same stored search), which asks to confirm and goes through the same permission check,
 * act-once and audit as any click on it. Zero or several events: Vigil says so and does nothing.
 */
import type { Block, KnownBlock } from '@slack/types';
import { onSurface } from '../../kernel/audit-surface.js';
import { reportError } from '../../slack/error-reply.js';
import { confirmDialog } from '../../slack/kit/kit.js';
import { type Asked, answerCommand, catchReplies, streamFor } from './answer.js';
import { type ConversationEvents, eventsIn, type LookingAt, threadMessages } from './context.js';
import type { AgentDeps } from './deps.js';
import type { AnswerStream } from './stream.js';

/** Where "that" is looked for: the person's thread in the DM, else what they were looking at. */
export interface ThatContext {
  /** The DM thread the message was sent in, when it was a reply. */
  thread: string | undefined;
  lookingAt: LookingAt | undefined;
  botUserId: string | undefined;
  appId: string | undefined;
}

async function eventsOfContext(
  deps: AgentDeps,
  asked: Asked,
  that: ThatContext,
  action: 'ignore' | 'remediate',
): Promise<ConversationEvents> {
  const opts = { botUserId: that.botUserId, appId: that.appId, action, hosts: deps.portalHosts };
  if (that.thread !== undefined) {
    const messages = await threadMessages(asked.client, asked.requester.channelId, that.thread);
    return eventsIn(messages, opts);
  }
  if (that.lookingAt !== undefined) {
    const { channel, ts } = that.lookingAt;
    const messages = await threadMessages(asked.client, channel, ts);
    return eventsIn(
      messages.filter((m) => m.ts === ts),
      opts,
    );
  }
  return { rows: [], uids: [] };
}

const FIND = { id: 'find', title: 'Find the one event this conversation shows' };

function howMany(n: number): string {
  return n === 0 ? 'no event' : `${n} events`;
}

async function notOne(stream: AnswerStream, n: number, what: string): Promise<void> {
  await stream.update(FIND.id, 'error', `This conversation shows ${howMany(n)}`);
  const words =
    n === 0
      ? `I ${what} only an event this conversation shows, and it shows none: ask in the thread of an answer that lists one event, or use the buttons on the event itself.`
      : `This conversation shows ${n} events, so “that one” could be any of them: I do nothing on a guess. Use the buttons on the row you mean.`;
  await stream.stop({ text: words, markdown: `${words} Nothing was done.` });
}

export async function actOnThat(
  deps: AgentDeps,
  asked: Asked,
  that: ThatContext,
  action: 'ignore' | 'remediate',
): Promise<void> {
  const stream = streamFor(deps, asked);
  const verb = action === 'ignore' ? 'Ignore' : 'Remediate';
  await stream.start(`${verb} the event you mean`, [
    FIND,
    { id: 'access', title: 'Check that you may act on events' },
    { id: 'confirm', title: `Ask you to confirm before anything is done` },
  ]);
  await stream.update(FIND.id, 'in_progress');
  const shown = await eventsOfContext(deps, asked, that, action);
  const [row, ...others] = shown.rows;
  if (row === undefined || others.length > 0) return notOne(stream, shown.rows.length, 'act on');
  await stream.update(FIND.id, 'complete');
  await stream.update('access', 'in_progress');
  try {
    await onSurface('agent', () => deps.authz.requireAccess(asked.client, asked.requester, 'act'));
  } catch (err) {
    await stream.update('access', 'error', 'Refused');
    const replies = catchReplies();
    await reportError(deps, err, replies.respond, { surface: 'agent', team: asked.requester.workspaceId });
    await stream.stop(replies.messages[0] ?? { text: 'Refused.', markdown: 'Refused.' });
    return;
  }
  await stream.update('access', 'complete');
  await stream.update('confirm', 'complete');
  const confirm = confirmDialog({
    title: `${verb} this event?`,
    text: `Vigil ${action === 'ignore' ? 'ignores' : 'remediates'} it for everyone, as the button on its row would.`,
    yes: verb,
    danger: action === 'remediate',
  });
  const blocks = [
    ...(row.section === undefined ? [] : [row.section as KnownBlock]),
    {
      type: 'actions',
      ...(row.blockId === undefined ? {} : { block_id: row.blockId }),
      elements: [{ ...row.button, confirm }],
    } as Block,
  ];
  await stream.stop({
    text: `${verb} this event? Nothing is done until you click.`,
    markdown: `Nothing is done until you click ${verb} below and confirm; Vigil checks your permission again then.`,
    blocks,
  });
}

/** "what is this": `/vigil explain` on the one event the conversation shows or links to. */
export async function explainThat(deps: AgentDeps, asked: Asked, that: ThatContext): Promise<void> {
  const shown = await eventsOfContext(deps, asked, that, 'ignore');
  const [uid, ...others] = shown.uids;
  if (uid === undefined || others.length > 0) {
    const stream = streamFor(deps, asked);
    await stream.start('Explain the event you mean', [FIND]);
    return notOne(stream, shown.uids.length, 'explain');
  }
  await answerCommand(
    deps,
    asked,
    { kind: 'explain', eventUid: uid },
    { text: `explain ${uid}`, via: 'plain' },
  );
}
