/**
 * "Did the benchmark do the work it times?" A benchmark whose requests are all refused (an unknown member, a
 * closed permission, a failing API) still prints a throughput, and a fast one: each benchmark checks what it
 * got before it prints a figure, and fails naming what it got instead. The smoke tests (test/bench/) run the
 * same checks at the smallest sizes, so a change that turns a benchmark into a measure of refusals fails CI.
 */

export interface WorkCheck {
  /** What the benchmark needed, e.g. "searches answered with results". */
  what: string;
  ok: boolean;
  /** What it got, in words: shown when the check fails. */
  got: string;
}

export class BenchDidNotWork extends Error {
  constructor(
    readonly bench: string,
    readonly failed: readonly WorkCheck[],
  ) {
    super(
      `${bench} did not do the work it measures, so its figures are not printed:\n` +
        failed.map((c) => `  - expected ${c.what}; got ${c.got}`).join('\n'),
    );
    this.name = 'BenchDidNotWork';
  }
}

/** Throws BenchDidNotWork listing every failed check; returns quietly when all passed. */
export function verifyWork(bench: string, checks: readonly WorkCheck[]): void {
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) throw new BenchDidNotWork(bench, failed);
}

/** `got` is exactly `want`. */
export function exactly(what: string, got: number, want: number): WorkCheck {
  return { what: `${want} ${what}`, ok: got === want, got: String(got) };
}

/** `got` is at least `want` (and at least 1: zero work is never the work). */
export function atLeast(what: string, got: number, want: number): WorkCheck {
  return { what: `at least ${Math.max(1, want)} ${what}`, ok: got >= Math.max(1, want), got: String(got) };
}

/** A short, single-line excerpt of what Slack was sent, for an error message. */
export function excerpt(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Every answer is a result: `isResult` says which texts are. Fails with how many were not, and the first
 * of them (a refusal, an error, a "Still working" notice) quoted.
 */
export function allResults(
  what: string,
  answers: readonly string[],
  isResult: (text: string) => boolean,
): WorkCheck {
  const others = answers.filter((a) => !isResult(a));
  const first = others[0];
  return {
    what: `every one of the ${what} to be a result`,
    ok: answers.length > 0 && others.length === 0,
    got:
      answers.length === 0
        ? 'no answer at all'
        : first === undefined
          ? 'all results'
          : `${others.length} of ${answers.length} not results, the first: "${excerpt(first)}"`,
  };
}

/**
 * What Vigil says when it did not do what was asked: a refusal (🚫), an error report (⚠️, a reference), an
 * unknown member, or the "Still working" notice that precedes a slow answer. Matches Slack text and the
 * playground's rendered HTML alike.
 */
export const NOT_A_RESULT =
  /:no_entry_sign:|:warning:|🚫|⚠️|Something went wrong|does not know your user|cannot tell what you may do|Still working/;
