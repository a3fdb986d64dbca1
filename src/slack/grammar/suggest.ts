/** "Did you mean" for subcommands, filter keys and enum values. */

/**
 * Optimal-string-alignment distance (Damerau-Levenshtein restricted to adjacent transpositions, the typo
 * people make: `evnets`). Stops early once the distance must exceed `max`, so a 4000-character token costs
 * nothing against a short candidate.
 * @internal
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let prevPrev = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i < rows; i++) {
    const cur = new Array<number>(cols).fill(0);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prevPrev[j - 2] ?? 0) + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = cur;
  }
  return prev[cols - 1] ?? 0;
}

/** How many edits still count as a typo of a word this long. */
function tolerance(length: number): number {
  if (length <= 3) return 1;
  if (length <= 7) return 2;
  return 3;
}

/**
 * The closest candidate, or undefined when nothing is close. Comparison ignores case; a prefix of at least
 * three letters (`rec` → `recommendations`) counts as close. Ties go to the earlier candidate.
 */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  if (needle.length === 0) return undefined;
  const max = tolerance(needle.length);
  let best: string | undefined;
  let bestScore = max + 1;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    if (lower === needle) return candidate;
    let score = editDistance(needle, lower, max);
    // A prefix counts as close, but never closer than a real near-miss.
    if (needle.length >= 3 && lower.startsWith(needle)) score = Math.min(score, max);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
