/**
 * What an ask is: one leaked credential of a company address, the member it was put to, their answers and
 * the escalation, kept as one record per credential (the digest of the address and the source, never the
 * secret) so the same credential is asked once per cooldown. Pure: no Slack, no store.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Event } from '../../api/index.js';

/** Event types whose subject is one person's credential: asking them makes sense. */
const ASKABLE_TYPES: ReadonlySet<string> = new Set(['leaked_credential', 'valid_credential', 'stealer_log']);

const ANSWERS = ['changed', 'not-mine', 'help'] as const;
export type AnswerKind = (typeof ANSWERS)[number];

/**
 * Why no DM was sent (each audited): the member is not someone Vigil may ask, or the installer declined the
 * optional `users:read.email` scope, so no address can be looked up (`no-email-scope`).
 */
const SKIPS = ['not-company', 'unknown', 'guest', 'bot', 'deactivated', 'no-email-scope'] as const;
export type SkipReason = (typeof SKIPS)[number];

/**
 * A post Vigil owes (a reply in the alert's thread), kept like the alert outbox's messages: owed (`pending`)
 * before anything is sent, claimed (`posting`, its owner and when) just before chat.postMessage, `posted`
 * with its ts just after. A claim whose owner died between the two is in doubt (thread.ts): the reply is
 * posted again, once per such crash, since only reading the channel could tell.
 */
const PostSchema = z.object({
  runId: z.string(),
  state: z.enum(['pending', 'posting', 'posted']),
  owner: z.string().optional(),
  claimedAt: z.number().optional(),
  /** Claims that reached chat.postMessage; more than one means a repeat may show in the thread. */
  attempts: z.number().int().optional(),
  ts: z.string().optional(),
});
export type OwedPost = z.infer<typeof PostSchema>;

export const AskSchema = z.object({
  id: z.string(),
  /** The DM's run id (in its metadata), found again in the DM after a crash. */
  runId: z.string(),
  /** The address the member is looked up by; shown only masked. */
  email: z.string().max(320),
  masked: z.string().max(400),
  /** Where it was found, as the event says (upstream text: escaped wherever it is shown). */
  source: z.string().max(200),
  /** When it was found (YYYY-MM-DD). */
  date: z.string().max(40),
  eventUid: z.string().max(500),
  /** The alert the answers go to: its message, and the subscription's time zone and people. */
  alert: z.object({
    channelId: z.string(),
    ts: z.string(),
    subscriptionId: z.string(),
    timeZone: z.string(),
    users: z.array(z.string()),
    groups: z.array(z.string()),
  }),
  createdAt: z.number(),
  state: z.enum(['queued', 'sending', 'asked', 'skipped']),
  skipped: z.enum(SKIPS).optional(),
  /** Who holds the DM's sending, and since when (a dead or late owner's is taken over). */
  owner: z.string().optional(),
  claimedAt: z.number().optional(),
  /** Failed attempts (Slack or the API unreachable) and when to try again. */
  failures: z.number().int().optional(),
  retryAt: z.number().optional(),
  userId: z.string().optional(),
  dmChannel: z.string().optional(),
  dmTs: z.string().optional(),
  sentAt: z.number().optional(),
  answers: z.array(
    z.object({ kind: z.enum(ANSWERS), at: z.number(), post: PostSchema, dmUpdated: z.boolean().optional() }),
  ),
  /** What the alert's row was last drawn saying (rowAnswer): drawn again until it says what the ask says. */
  row: z.enum(['changed', 'not-mine', 'help', 'none', 'left']).optional(),
  /** No answer in time (`no-answer`, the group mentioned once), or the member left (`left`, noted). */
  escalation: z.object({ reason: z.enum(['no-answer', 'left']), post: PostSchema }).optional(),
});
export type Ask = z.infer<typeof AskSchema>;

/** The hourly window of DMs sent in a workspace: one entry per ask, kept an hour. */
export const WindowSchema = z.object({ sends: z.array(z.object({ at: z.number(), id: z.string() })) });
export type SendWindow = z.infer<typeof WindowSchema>;
export const WINDOW_KEY = 'window';
export const HOUR_MS = 3_600_000;

const EMAIL = /[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+/gi;

export const isAskable = (event: Pick<Event, 'metadata'>): boolean => ASKABLE_TYPES.has(event.metadata.type);

/** The addresses an event names: in its matched identifiers, then in its highlights (marks removed). */
export function emailsOf(event: Event): string[] {
  const texts = [
    ...(event.identifiers ?? []).map((i) => i.name),
    ...Object.values(event.highlights ?? {})
      .flat()
      .map((f) => f.replace(/<[^<>]*>/g, '')),
  ];
  const found = texts.flatMap((t) => t.match(EMAIL) ?? []).map((e) => e.toLowerCase());
  return [...new Set(found)];
}

/** The first address of an event on one of the company's domains (or a subdomain of one). */
export function companyEmail(emails: readonly string[], domains: ReadonlySet<string>): string | undefined {
  return emails.find((email) => {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const labels = domain.split('.');
    return labels.some((_, i) => domains.has(labels.slice(i).join('.')));
  });
}

/** `dana.smith@acme.example` → `d•••@acme.example`: enough for the member to recognise, never the whole. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** Where an event says it was found: the source segment of its uid (`type/source/record`), else its type. */
export function sourceOf(event: Pick<Event, 'metadata'>): string {
  const parts = event.metadata.uid.split('/');
  const source = parts.length >= 3 ? parts[1] : undefined;
  return (source !== undefined && source !== '' ? source : event.metadata.type).slice(0, 200);
}

export function dateOf(event: Pick<Event, 'metadata'>): string {
  return event.metadata.estimated_created_at.slice(0, 10);
}

/** The record key of a credential: a digest of the address and the source (the secret never enters it). */
export function credentialKey(email: string, source: string): string {
  return createHash('sha256').update(`${email}\n${source}`).digest('hex').slice(0, 32);
}

/** "changed since", "not their account", "needs help": how the thread says an answer. */
export function answerWords(kind: AnswerKind): string {
  switch (kind) {
    case 'changed':
      return 'changed since';
    case 'not-mine':
      return 'not their account';
    case 'help':
      return 'needs help';
  }
}

/** `14:02` in the subscription's time zone. */
export function clockIn(ms: number, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(ms);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(
      ms,
    );
  }
}

/** Whether an ask still waits for the member (no answer, no escalation yet). */
export const awaitingAnswer = (ask: Ask): boolean =>
  ask.state === 'asked' && ask.answers.length === 0 && ask.escalation === undefined;

/**
 * Whether an ask still has work for a tick, now or later: a DM to send, an answer or escalation awaited, a
 * reply owed to the alert's thread, or a row to draw. Only open asks are indexed (and read by a tick); a
 * closed one opens again when the member answers later.
 */
export function isOpen(ask: Ask): boolean {
  if (ask.state === 'queued' || ask.state === 'sending') return true;
  if (ask.state === 'skipped') return false;
  return awaitingAnswer(ask) || owedPosts(ask).length > 0 || ask.row !== rowAnswer(ask);
}

/** The posts of an ask not yet made (answers' replies, the escalation). */
export function owedPosts(ask: Ask): { which: PostRef; post: OwedPost }[] {
  const owed: { which: PostRef; post: OwedPost }[] = ask.answers.map((a, i) => ({
    which: { answer: i },
    post: a.post,
  }));
  if (ask.escalation) owed.push({ which: 'escalation', post: ask.escalation.post });
  return owed.filter((o) => o.post.state !== 'posted');
}

export type PostRef = { answer: number } | 'escalation';

export function postOf(ask: Ask, which: PostRef): OwedPost | undefined {
  return which === 'escalation' ? ask.escalation?.post : ask.answers[which.answer]?.post;
}

export function withPost(ask: Ask, which: PostRef, post: OwedPost): Ask {
  if (which === 'escalation')
    return ask.escalation === undefined ? ask : { ...ask, escalation: { ...ask.escalation, post } };
  return { ...ask, answers: ask.answers.map((a, i) => (i === which.answer ? { ...a, post } : a)) };
}

export type RowAnswer = NonNullable<Ask['row']>;

/** What the alert's row should say of an ask: the latest answer, that none came yet, or that the member left. */
export function rowAnswer(ask: Ask): RowAnswer | undefined {
  if (ask.state !== 'asked') return undefined;
  const last = ask.answers.at(-1);
  if (last !== undefined) return last.kind;
  return ask.escalation?.reason === 'left' ? 'left' : 'none';
}
