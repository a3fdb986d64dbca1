/**
 * The one place a failure becomes a Slack message: what went wrong, what to do next, and a reference id
 * that is also in the log. Internal errors show only the reference, never a stack trace or raw text.
 * A refusal (not connected, not allowed, too busy) is an answer, not a failure: no reference, and an info
 * line without a stack.
 */
import { randomBytes } from 'node:crypto';
// The Web API's error codes through Bolt's re-export: loaded before the web server listens, and importing
// @slack/web-api by name has Node parse its CommonJS exports again.
import { type RespondFn, webApi } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import { ApiError, RateLimitedError } from '../api/errors.js';
import { RefusalError, VigilError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import { StoreError, StoreUnavailableError } from '../store/opening.js';
import { ephemeral } from './context.js';
import { escapeMrkdwn, truncate } from './kit/text.js';

export interface ErrorMessage {
  text: string;
  blocks: KnownBlock[];
}

function newReferenceId(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

/** Whether the error is ours to explain (expected), as opposed to a bug. */
export function isExpected(err: unknown): err is VigilError {
  // ApiError is a VigilError too.
  return err instanceof VigilError;
}

/** A Slack call that timed out, lost its connection or got a server error (see slack/client-options.ts). */
function isSlackUnanswered(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === webApi.ErrorCode.RequestError || code === webApi.ErrorCode.HTTPError;
}

/** Pure: the message for an error. Upstream-derived text is escaped; our own words are plain. */
function errorMessage(err: unknown, referenceId: string): ErrorMessage {
  let cause: string;
  let next: string;
  // API errors are told in a sentence of their class (`told`); status, route and upstream detail stay in the log.
  if (err instanceof RateLimitedError) {
    const wait = err.retryAfterMs
      ? ` Try again in about ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s.`
      : '';
    cause = escapeMrkdwn(err.told);
    next = escapeMrkdwn(err.hint) + wait;
  } else if (err instanceof ApiError) {
    cause = escapeMrkdwn(err.told);
    next = escapeMrkdwn(err.hint);
  } else if (err instanceof VigilError) {
    // Our own words, with intended `code` spans (escapeMrkdwn would neutralise them); any upstream part
    // was escaped where the error was made, so only Slack's control characters are escaped here.
    cause = ownWords(err.message);
    next = ownWords(err.hint);
  } else if (isSlackUnanswered(err)) {
    cause = 'Slack did not answer Vigil in time (or failed), so Vigil could not finish this.';
    next = 'Look whether it was done, then try again in a moment.';
  } else if (err instanceof StoreError) {
    cause = 'Vigil could not reach its storage, so nothing was changed.';
    next = 'Try again in a minute.';
  } else {
    cause = 'Something went wrong on Vigil’s side.';
    next = 'Try again; if it keeps happening, give the reference below to your Vigil administrator.';
  }
  const text = `:warning: ${cause}`;
  return {
    text: `${text} (ref ${referenceId})`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: truncate(text, 2900) } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `${truncate(next, 2500)}  ·  Reference \`${referenceId}\`` }],
      },
    ],
  };
}

/** The storage did not answer: a passing condition, told like a refusal (the store logs the outage once). */
const STORE_UNAVAILABLE = new RefusalError(
  'Vigil’s storage is unavailable right now, so nothing was done.',
  'Try again in a few seconds; if it lasts, tell your Vigil administrator (Vigil cannot reach its store).',
);

/** The answer to give instead of an error report, when the error is one to answer rather than report. */
export function answerFor(err: unknown): RefusalError | undefined {
  if (err instanceof RefusalError) return err;
  return err instanceof StoreUnavailableError ? STORE_UNAVAILABLE : undefined;
}

/** Pure: the answer to a refusal, in our own words, with what to do instead and no reference code. */
export function refusalMessage(err: RefusalError): ErrorMessage {
  const text = ownWords(err.message);
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `:no_entry_sign: ${truncate(text, 2900)}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(ownWords(err.hint), 2500) }] },
    ],
  };
}

/** Pure: a modal that says the refusal, for a view submission answered in its ack. */
export function refusalView(message: ErrorMessage): View {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: 'Vigil' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: message.blocks,
  };
}

/** Escapes `&`, `<` and `>` (no mentions or links), leaving entities already escaped alone. */
function ownWords(text: string): string {
  return text
    .replace(/&(?!(?:amp|lt|gt);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Logs the error with a new reference id and tells the requester, ephemerally, never replacing content (a
 * command's `respond` here replaces its own progress placeholder: see slack/command.ts).
 * A refusal is told as an answer and logged as one info line; its reference id is returned but never shown.
 */
export async function reportError(
  deps: { logger: Logger },
  err: unknown,
  respond: RespondFn | undefined,
  context: Record<string, unknown> = {},
): Promise<string> {
  const referenceId = newReferenceId();
  const answer = answerFor(err);
  if (answer) {
    if (err instanceof RefusalError)
      deps.logger.info('request refused', { refusal: err.name, reason: err.message, ...context });
    else deps.logger.debug('request failed: store unavailable', context);
    if (respond) {
      try {
        await respond(ephemeral(refusalMessage(answer), false));
      } catch (postErr) {
        deps.logger.error('could not tell the user about a refusal', { err: postErr });
      }
    }
    return referenceId;
  }
  if (isExpected(err)) deps.logger.warn('request failed', { ref: referenceId, err, ...context });
  else deps.logger.error('request failed unexpectedly', { ref: referenceId, err, ...context });
  if (respond) {
    try {
      await respond(ephemeral(errorMessage(err, referenceId), false));
    } catch (postErr) {
      deps.logger.error('could not tell the user about an error', { ref: referenceId, err: postErr });
    }
  }
  return referenceId;
}
