/**
 * Usage failures inside the parser. Sub-parsers throw `ParseFailure` through `fail()` so each check stays a
 * line long; `parseCommand` is the only place that catches, and it turns every failure into a value.
 */

export interface FailureDetail {
  message: string;
  /** Defaults to a pointer at the subcommand's help. */
  hint?: string;
  /** Defaults to the subcommand's first example. */
  example?: string;
}

export class ParseFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
    this.name = 'ParseFailure';
  }
}

export function fail(message: string, more: Omit<FailureDetail, 'message'> = {}): never {
  throw new ParseFailure({ message, ...more });
}

import { mayBeSecret } from './secrets.js';

const ECHO_MAX = 40;

/** Said in place of a stray word that might be a secret, which is never quoted back. */
export const NOT_REPEATED = '(not repeated here, in case it is a secret)';

/** Whether typed text may be quoted back in an error: none of its words might be a secret. */
export function mayEcho(text: string): boolean {
  return !text.split(/\s+/).some((word) => word !== '' && mayBeSecret(word));
}

/**
 * User input quoted back inside an error, between backticks: no backticks or line breaks (they would end
 * the code span and let the input format itself), and short. Like every parser text it is plain text:
 * `toMrkdwn` escapes `&`, `<`, `>` before it reaches Slack.
 */
export function echo(text: string): string {
  const flat = text.replace(/[`\r\n\t]/g, ' ');
  const chars = Array.from(flat);
  return chars.length > ECHO_MAX ? `${chars.slice(0, ECHO_MAX - 1).join('')}…` : flat;
}

/**
 * Parser texts (error messages, hints, usage lines, help) are plain text whose only markup is backtick code
 * spans. This makes one safe for a mrkdwn field: Slack needs `&`, `<`, `>` escaped, and after that no
 * mention, link or date token can form.
 */
export function toMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `a`, `b` or `c` — for listing allowed values in a message. */
export function listOf(values: readonly string[], conjunction = 'or'): string {
  const quoted = values.map((v) => `\`${v}\``);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
