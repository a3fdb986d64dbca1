/**
 * Matching identifiers by name, locally (the API's list takes no text query). Pure: a list in, the matches
 * out, ranked so the identifier a person most likely meant comes first.
 */

export interface KnownIdentifier {
  id: number;
  name: string;
  /** The contract's data type (`domain`, `identity`, …), or `unknown`. */
  type: string;
  /** The type plus an identity's attribute kinds (`email`, `username`, `name`): what `type:` filters on. */
  kinds: string[];
  disabled: boolean;
}

const normalize = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** 0: the whole name; 1: the name starts with the words; 2: a word of the name does; 3: anywhere. */
function rank(name: string, words: readonly string[], phrase: string): number {
  if (name === phrase) return 0;
  if (name.startsWith(phrase)) return 1;
  const parts = name.split(/[\s.@_/:-]+/);
  if (words.every((w) => parts.some((p) => p.startsWith(w)))) return 2;
  return 3;
}

/** Identifiers whose name holds every word (any case), of one of `kinds` when given; best first. */
export function matchIdentifiers(
  list: readonly KnownIdentifier[],
  query: { words?: readonly string[]; kinds?: readonly string[] },
): KnownIdentifier[] {
  const words = (query.words ?? []).map(normalize).filter((w) => w !== '');
  const phrase = words.join(' ');
  const kinds = query.kinds ?? [];
  const scored: { i: KnownIdentifier; r: number; name: string }[] = [];
  for (const i of list) {
    if (kinds.length > 0 && !i.kinds.some((k) => kinds.includes(k))) continue;
    const name = normalize(i.name);
    if (!words.every((w) => name.includes(w))) continue;
    scored.push({ i, r: words.length === 0 ? 3 : rank(name, words, phrase), name });
  }
  // Same rank: the shorter name is the closer match, then alphabetical (a plain list is alphabetical).
  const byLength = words.length > 0;
  scored.sort(
    (a, b) =>
      a.r - b.r ||
      (byLength ? a.name.length - b.name.length : 0) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i.id - b.i.id),
  );
  return scored.map((s) => s.i);
}

/** What a name means: one identifier, several to choose from, or none (with close names). */
export type NameResolution =
  | { kind: 'one'; identifier: KnownIdentifier; exact: boolean }
  | { kind: 'several'; candidates: KnownIdentifier[]; exact: boolean }
  | { kind: 'none'; suggestions: KnownIdentifier[] };

export function resolveName(list: readonly KnownIdentifier[], name: string): NameResolution {
  const wanted = normalize(name);
  const exact = list.filter((i) => normalize(i.name) === wanted);
  if (exact.length === 1 && exact[0]) return { kind: 'one', identifier: exact[0], exact: true };
  if (exact.length > 1) return { kind: 'several', candidates: exact, exact: true };
  const partial = matchIdentifiers(list, { words: wanted.split(' ') });
  if (partial.length === 1 && partial[0]) return { kind: 'one', identifier: partial[0], exact: false };
  if (partial.length > 1) return { kind: 'several', candidates: partial, exact: false };
  return { kind: 'none', suggestions: closestNames(list, wanted, 3) };
}

/** The names nearest to a typo: by edit distance to the whole name or to one of its parts. */
function closestNames(list: readonly KnownIdentifier[], typed: string, max: number): KnownIdentifier[] {
  const wanted = normalize(typed);
  if (wanted === '') return [];
  const limit = Math.max(1, Math.min(4, Math.floor(wanted.length / 3)));
  const scored: { i: KnownIdentifier; d: number }[] = [];
  for (const i of list) {
    const name = normalize(i.name);
    const parts = [name, ...name.split(/[\s.@_/:-]+/).filter((p) => p.length >= 3)];
    const d = Math.min(...parts.map((p) => distance(wanted, p, limit)));
    if (d <= limit) scored.push({ i, d });
  }
  scored.sort((a, b) => a.d - b.d || a.i.name.localeCompare(b.i.name));
  return scored.slice(0, max).map((s) => s.i);
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? max + 1;
}
