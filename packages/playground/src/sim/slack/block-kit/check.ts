/**
 * How the simulated Slack reports a refused payload: one message per problem, worded like Slack's own
 * ("must be less than 3001 characters [json-pointer:/blocks/0/text/text]"), so a failing test names the exact
 * field. Every rule that calls these helpers cites the Block Kit reference page it comes from.
 */

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Problems {
  readonly list: string[] = [];

  add(problem: string, pointer: string): void {
    this.list.push(`${problem} [json-pointer:${pointer}]`);
  }

  /** A string field: its length within [min, max] when present, or required. */
  string(
    value: unknown,
    pointer: string,
    max: number,
    opts: { min?: number; required?: boolean } = {},
  ): void {
    if (value === undefined) {
      if (opts.required) this.missing(pointer);
      return;
    }
    if (typeof value !== 'string') {
      this.add('must be a string', pointer);
      return;
    }
    if (value.length > max) this.add(`must be less than ${max + 1} characters`, pointer);
    const min = opts.min ?? 0;
    if (value.length < min) this.add(`must be at least ${min} characters`, pointer);
  }

  /** An array field: its number of items within [min, max] when present, or required. */
  array(
    value: unknown,
    pointer: string,
    max: number,
    opts: { min?: number; required?: boolean } = {},
  ): unknown[] {
    if (value === undefined) {
      if (opts.required) this.missing(pointer);
      return [];
    }
    if (!Array.isArray(value)) {
      this.add('must be an array', pointer);
      return [];
    }
    if (value.length > max) this.add(`no more than ${max} items allowed`, pointer);
    const min = opts.min ?? 0;
    if (value.length < min) this.add(`must provide at least ${min} items`, pointer);
    return value;
  }

  integer(value: unknown, pointer: string, min: number, max: number): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) this.add('must be an integer', pointer);
    else if (value < min || value > max) this.add(`must be between ${min} and ${max}`, pointer);
  }

  boolean(value: unknown, pointer: string): void {
    if (value !== undefined && typeof value !== 'boolean') this.add('must be a boolean', pointer);
  }

  oneOf(value: unknown, allowed: readonly string[], pointer: string, required = false): void {
    if (value === undefined) {
      if (required) this.missing(pointer);
      return;
    }
    if (typeof value !== 'string' || !allowed.includes(value))
      this.add('must be a valid enum value', pointer);
  }

  /** `pointer` names the missing field; Slack reports it against its parent. */
  missing(pointer: string): void {
    const cut = pointer.lastIndexOf('/');
    this.add(`missing required field: ${pointer.slice(cut + 1)}`, pointer.slice(0, cut) || '/');
  }

  /** Fields Slack does not know for this object (its schemas refuse additional properties). */
  unknownFields(obj: Json, known: readonly string[], pointer: string): void {
    for (const key of Object.keys(obj)) {
      if (!known.includes(key)) this.add(`unsupported field: ${key}`, pointer);
    }
  }
}
