/**
 * What the member and the security team read: the DM (what was found, why it matters, three answers), the
 * DM once answered, and the replies in the alert's thread. Pure builders; the source is upstream text and is
 * escaped; the address is only ever shown masked; no password or hash is ever given to them.
 */
import type { KnownBlock } from '@slack/types';
import { escapeMrkdwn, userMention } from '../../slack/kit/text.js';
import { type AnswerKind, type Ask, answerWords, clockIn } from './model.js';

export const ANSWER_ACTIONS: Record<AnswerKind, string> = {
  changed: 'ask_person_changed',
  'not-mine': 'ask_person_not_mine',
  help: 'ask_person_help',
};

const BUTTON_TEXT: Record<AnswerKind, string> = {
  changed: "I've changed it since",
  'not-mine': "This isn't my account",
  help: 'I need help',
};

export interface Message {
  text: string;
  blocks: KnownBlock[];
}

function found(ask: Pick<Ask, 'masked' | 'source' | 'date'>): string {
  return `Your security team's monitoring found a password for *${escapeMrkdwn(ask.masked)}* in *${escapeMrkdwn(ask.source)}* (seen ${escapeMrkdwn(ask.date)}).`;
}

const WHY =
  'Why it matters: whoever holds that list can try the password on your work accounts, and on any other account where you used it.';
const NEVER = 'Vigil never shows the password, and nobody from security will ask you for it.';

/** The DM: what was found, why it matters, and the three answers (their value: the ask's id). */
export function askMessage(ask: Pick<Ask, 'id' | 'masked' | 'source' | 'date'>): Message {
  return {
    text: `A password for ${ask.masked} was found in a leak: have you changed it since?`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: found(ask) } },
      { type: 'section', text: { type: 'mrkdwn', text: WHY } },
      {
        type: 'actions',
        block_id: 'ask_person',
        elements: (Object.keys(ANSWER_ACTIONS) as AnswerKind[]).map((kind) => ({
          type: 'button' as const,
          action_id: ANSWER_ACTIONS[kind],
          text: { type: 'plain_text' as const, text: BUTTON_TEXT[kind] },
          value: ask.id,
          ...(kind === 'help' ? { style: 'primary' as const } : {}),
        })),
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: NEVER }] },
    ],
  };
}

const THANKS: Record<AnswerKind, string> = {
  changed: 'Thank you: your security team knows you changed it.',
  'not-mine': 'Thank you: your security team knows it is not your account and will look into it.',
  help: 'Your security team has been asked to help you; someone will reach out shortly.',
};

/** The DM once answered: the same facts, the answer given, no buttons. */
export function answeredMessage(ask: Pick<Ask, 'masked' | 'source' | 'date'>, kind: AnswerKind): Message {
  return {
    text: THANKS[kind],
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: found(ask) } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `You answered *${BUTTON_TEXT[kind]}*. ${THANKS[kind]}` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: NEVER }] },
    ],
  };
}

/** The subscription's mention group (else its people): only ids of the shape Slack gives. */
function mentionOf(alert: Ask['alert']): string {
  const groups = alert.groups.filter((g) => /^S[A-Z0-9]{2,30}$/.test(g)).map((g) => `<!subteam^${g}>`);
  const people = alert.users.flatMap((u) => userMention(u) ?? []);
  return (groups.length > 0 ? groups : people).join(' ');
}

function context(text: string): Message {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** "<@U…>: changed since · 14:02" in the alert's thread; *I need help* mentions the group. */
export function answerReply(ask: Ask, kind: AnswerKind, at: number): Message {
  const who = userMention(ask.userId ?? '') ?? 'The member';
  const mention = kind === 'help' ? mentionOf(ask.alert) : '';
  const line = `${who}: ${answerWords(kind)} · ${clockIn(at, ask.alert.timeZone)} (${escapeMrkdwn(ask.masked)})`;
  return context(mention === '' ? line : `${mention} ${line}`);
}

/** The escalation: no answer in time (the group mentioned once), or the member left (noted, not chased). */
export function escalationReply(ask: Ask, reason: 'no-answer' | 'left', hours: number): Message {
  const who = userMention(ask.userId ?? '') ?? 'the member';
  const mention = mentionOf(ask.alert);
  const line =
    reason === 'left'
      ? `${who} left the workspace before answering about ${escapeMrkdwn(ask.masked)}: not asked further.`
      : `no answer from ${who} about ${escapeMrkdwn(ask.masked)} within ${hours} hours.`;
  return context(mention === '' ? line : `${mention} ${line}`);
}
