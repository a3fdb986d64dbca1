/**
 * The leaked value (a hash, or often the plaintext password itself) is never shown whole except on an
 * explicit, audited reveal. Masked, it keeps a few leading characters so an analyst can tell values apart
 * (a `$2b$` bcrypt from a hex digest), and a fixed run of dots so the length is not given away either.
 */
import { detectSecret } from '../slack/grammar/secrets.js';

const DOTS = '••••••••';

/** How many leading characters a value of this length keeps: none for short ones (likely plaintext). */
function keptChars(length: number): number {
  if (length >= 24) return 4;
  if (length >= 12) return 2;
  return 0;
}

export function maskValue(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const chars = [...value];
  return `${chars.slice(0, keptChars(chars.length)).join('')}${DOTS}`;
}

/** Whether a word was masked by `maskValue` (stored masked: Reveal reads it from the API). */
export function isMaskedValue(word: string): boolean {
  return word.includes(DOTS);
}

/**
 * An upstream text fragment (an event highlight, HTML with `<mark>`) with each password-like word masked, so it
 * is never stored in clear; the marks around a masked word go with it. Reports whether any word was.
 */
export function maskSecretWords(fragment: string): { text: string; hidden: boolean } {
  let hidden = false;
  const text = fragment.replace(/\S+/g, (token) => {
    const word = token.replace(/<\/?mark>/g, '');
    // A combo line (`dana@acme.example:Hunter2!`) keeps its identity, which is what the event is about.
    const combo = COMBO.exec(word);
    const secret = combo?.[3] ?? word;
    if (detectSecret(secret) === undefined && detectSecret(word) === undefined) return token;
    hidden = true;
    return combo ? `${combo[1]}${combo[2]}${maskValue(secret)}` : maskValue(word);
  });
  return { text, hidden };
}

/** `<email><separator><secret>`, the shape of a leaked combo list's line. */
const COMBO = /^([^\s:;|@]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,63})([:;|])(.+)$/i;
