/** Value checks shared by the subcommands. Each either returns the normalised value or fails precisely. */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { Order } from '../../api/index.js';
import { echo, fail, listOf } from './errors.js';
import { suggest } from './suggest.js';

/** A positive integer id within the safe range (`what` names it in the message). */
export function positiveInt(text: string, what: string, example?: string): number {
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) {
    fail(`${what} must be a positive whole number, not \`${echo(text)}\`.`, example ? { example } : {});
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) fail(`${what} \`${echo(text)}\` is too large.`, example ? { example } : {});
  return n;
}

/** An integer in [min, max]. */
export function intInRange(text: string, what: string, min: number, max: number, example?: string): number {
  const more = example ? { example } : {};
  if (!/^-?\d+$/.test(text))
    fail(`${what} must be a whole number from ${min} to ${max}, not \`${echo(text)}\`.`, more);
  const n = Number(text);
  if (n < min || n > max) fail(`${what} must be from ${min} to ${max}, not \`${echo(text)}\`.`, more);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuid(text: string, what: string, example?: string): string {
  if (!UUID.test(text)) {
    fail(
      `${what} must be a UUID like \`3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f\`, not \`${echo(text)}\`.`,
      example ? { example } : {},
    );
  }
  return text.toLowerCase();
}

const EVENT_UID = /^[^/\s]+\/[^/\s]+\/\S+$/;
/** The longest event uid Vigil keeps (snoozes, contexts): longer ones are refused here, before anything is stored. */
const MAX_EVENT_UID = 400;

/** Whether text has the shape of an event uid (`<index>/<source>/<id>`), whatever its length. */
export function isEventUid(text: string): boolean {
  return EVENT_UID.test(text);
}

/** An event uid (`<index>/<source>/<id>`), trimmed, at most MAX_EVENT_UID characters. */
export function eventUid(text: string, shown: string, example?: string): string {
  const uid = text.trim();
  const more = example ? { example } : {};
  if (!isEventUid(uid)) fail(`${shown} is not an event uid; it looks like \`<index>/<source>/<id>\`.`, more);
  if (uid.length > MAX_EVENT_UID) {
    fail(`That event uid has ${uid.length} characters; an event uid has at most ${MAX_EVENT_UID}.`, more);
  }
  return uid;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Whether text is a fully qualified domain name; returns its ASCII, lower-case form or undefined. */
function asFqdn(text: string): string | undefined {
  const trimmed = text.trim().replace(/\.$/, '');
  const ascii = /^[\x21-\x7e]*$/.test(trimmed) ? trimmed.toLowerCase() : domainToASCII(trimmed);
  const labels = ascii.split('.');
  const tld = labels[labels.length - 1] ?? '';
  const valid =
    ascii.length > 0 &&
    ascii.length <= 253 &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    !/^\d+$/.test(tld);
  return valid ? ascii : undefined;
}

/**
 * A fully qualified domain name: at least two labels, letters/digits/hyphens, a non-numeric top-level
 * label. Unicode names become punycode; case and a trailing dot are dropped.
 */
export function fqdn(text: string, what: string, example?: string): string {
  const more = example ? { example } : {};
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim())) {
    fail(`${what} takes a domain name without \`scheme://\`, like \`example.com\`.`, more);
  }
  const ascii = asFqdn(text);
  if (!ascii) fail(`${what} must be a domain name like \`example.com\`, not \`${echo(text)}\`.`, more);
  return ascii;
}

/** An email address: a local part without spaces and a valid domain. The local part keeps its case. */
export function email(text: string, what: string, example?: string): string {
  const at = text.lastIndexOf('@');
  const local = at > 0 ? text.slice(0, at) : '';
  const domain = at > 0 ? asFqdn(text.slice(at + 1)) : undefined;
  if (!domain || local.length > 64 || /[\s@<>]/.test(local)) {
    fail(
      `${what} must be an email address like \`alice@example.com\`, not \`${echo(text)}\`.`,
      example ? { example } : {},
    );
  }
  return `${local}@${domain}`;
}

export function ip(text: string, what: string, example?: string): string {
  if (isIP(text) === 0) {
    fail(`${what} must be an IPv4 or IPv6 address, not \`${echo(text)}\`.`, example ? { example } : {});
  }
  return text.toLowerCase();
}

/** Free text (keyword, brand, query): non-empty after trimming, bounded. */
export function text(value: string, what: string, max: number, example?: string): string {
  const more = example ? { example } : {};
  const trimmed = value.trim();
  if (trimmed.length === 0) fail(`${what} is empty.`, more);
  if (trimmed.length > max) fail(`${what} is longer than ${max} characters.`, more);
  return trimmed;
}

/** One value of a fixed set, case-insensitive, with a suggestion when it is a typo. */
export function oneOf<T extends string>(
  value: string,
  allowed: readonly T[],
  what: string,
  example?: string,
): T {
  const lower = value.toLowerCase();
  const found = allowed.find((a) => a === lower);
  if (found) return found;
  const guess = suggest(lower, allowed);
  const message = `\`${echo(value)}\` is not a valid ${what}.`;
  const hint = guess
    ? `Did you mean \`${guess}\`? Valid values: ${listOf(allowed)}.`
    : `Valid values: ${listOf(allowed)}.`;
  fail(message, example ? { hint, example } : { hint });
}

/** `order:` everywhere it is accepted. */
export function order(value: string, example?: string): Order {
  return oneOf(value, ORDERS, 'order', example);
}

const ORDERS = ['asc', 'desc'] as const satisfies readonly Order[];

/** A list of values of a fixed set, each at most once. */
export function listOfEnum<T extends string>(
  parts: readonly string[],
  allowed: readonly T[],
  what: string,
  key: string,
  example?: string,
): T[] {
  const seen: T[] = [];
  for (const part of parts) {
    if (part.trim() === '')
      fail(`\`${key}:\` has an empty value between commas.`, example ? { example } : {});
    const value = oneOf(part.trim(), allowed, what, example);
    if (seen.includes(value))
      fail(`\`${value}\` is listed twice in \`${key}:\`.`, example ? { example } : {});
    seen.push(value);
  }
  return seen;
}
