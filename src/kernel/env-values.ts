/**
 * Readers of environment variables, one per kind of value, for the configuration (config.ts). Each value is
 * trimmed and a blank one counts as unset. Not zod: loading it costs a start some 70 ms (about a hundred
 * modules), a sixth of a bare Bolt app's whole start, to check a flat list of strings; zod stays for the
 * API's answers and the stored records, loaded once Vigil listens.
 */

/** A value the variable cannot hold; its message says what it must be. */
class ValueProblem extends Error {}

/** Reads one variable's raw value; throws ValueProblem when the value is not of its kind. */
type Reader<T> = (raw: string | undefined) => T;

/** Reads a set value with `read`; undefined when unset. */
export function optional<T>(read: (value: string) => T): Reader<T | undefined> {
  return (raw) => {
    const value = raw?.trim();
    return value ? read(value) : undefined;
  };
}

/** Reads a set value with `read`; `fallback` when unset. */
export function withDefault<T>(read: (value: string) => T, fallback: T): Reader<T> {
  return (raw) => {
    const value = raw?.trim();
    return value ? read(value) : fallback;
  };
}

/** Any text, or text `valid` accepts (else `message`). */
export function text(valid?: (value: string) => boolean, message = ''): (value: string) => string {
  return (value) => {
    if (valid && !valid(value)) throw new ValueProblem(message);
    return value;
  };
}

/** Text matching `pattern`. */
export const matching = (pattern: RegExp, message: string) => text((v) => pattern.test(v), message);

export const absoluteUrl = text((v) => URL.canParse(v), 'must be an absolute URL');

/**
 * A whole number from `min` to `max` (as JavaScript's Number reads it, so 1e3 is 1000). `message` when it is
 * not one; `tooSmall`/`tooLarge` when given say which bound it missed.
 */
export function wholeNumber(bounds: {
  min: number;
  max?: number;
  message: string;
  tooSmall?: string;
  tooLarge?: string;
}): (value: string) => number {
  const { min, max = Number.MAX_SAFE_INTEGER, message } = bounds;
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new ValueProblem(message);
    if (n < min) throw new ValueProblem(bounds.tooSmall ?? message);
    if (n > max) throw new ValueProblem(bounds.tooLarge ?? message);
    return n;
  };
}

/** One of `choices`, in any case. */
export function oneOf<const C extends readonly string[]>(
  choices: C,
  message = `must be one of ${choices.join(', ')}`,
): (value: string) => C[number] {
  return (value) => {
    const lower = value.toLowerCase();
    const found = choices.find((c) => c === lower);
    if (found === undefined) throw new ValueProblem(message);
    return found;
  };
}

/** Text `parse` reads into a value, or whose problem it names (a string). */
export function parsedBy<T>(parse: (value: string) => T | string): (value: string) => T {
  return (value) => {
    const out = parse(value);
    if (typeof out === 'string') throw new ValueProblem(out);
    return out;
  };
}

type Readers = Record<string, Reader<unknown>>;
type Values<R extends Readers> = { [K in keyof R]: ReturnType<R[K]> };

/**
 * Reads every variable `readers` names; the problems, one line each (`NAME: what it must be`), in the
 * readers' order, and the values when there are none.
 */
export function readVariables<R extends Readers>(
  env: Record<string, string | undefined>,
  readers: R,
): { values: Values<R>; problems: [] } | { values: undefined; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, read] of Object.entries(readers)) {
    try {
      values[name] = read(env[name]);
    } catch (err) {
      if (!(err instanceof ValueProblem)) throw err;
      problems.push(`${name}: ${err.message}`);
    }
  }
  if (problems.length > 0) return { values: undefined, problems };
  return { values: values as Values<R>, problems: [] };
}
