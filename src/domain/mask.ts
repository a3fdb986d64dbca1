/**
 * The leaked value (a hash, or often the plaintext password itself) is never shown whole except on an
 * explicit, audited reveal. Masked, it keeps a few leading characters so an analyst can tell values apart
 * (a `$2b$` bcrypt from a hex digest), and a fixed run of dots so the length is not given away either.
 */
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
