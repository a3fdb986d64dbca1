/**
 * Zod building blocks shared by the resource schemas. Parsing is as tolerant as the published contracts:
 * unknown fields are stripped, fields the contract does not require may be missing, and a list is read item
 * by item, so one honest production response, or one odd item in it, never fails a whole page.
 */
import { z } from 'zod';

export const nullableString = z.string().nullable();

/** `next` is documented as string | null; an empty string (or a missing field) also means "last page". */
export const nextCursor = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v): string | null => (v === undefined || v === null || v === '' ? null : String(v)));

const UNREADABLE = Symbol('unreadable');

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `value` read with `schema`, keeping what can be kept when it does not fit: a field the schema may go
 * without (optional) that holds something unexpected is left out, an odd element of a list or entry of a
 * dictionary is dropped; only when a field the schema needs is unreadable is the value itself unreadable.
 */
function rescue(schema: z.ZodType, value: unknown): unknown {
  const direct = schema.safeParse(value);
  if (direct.success) return direct.data;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    return rescue(schema.unwrap() as z.ZodType, value);
  }
  if (schema instanceof z.ZodObject && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const got = rescue(child, value[key]);
      if (got !== UNREADABLE) {
        if (got !== undefined) out[key] = got;
      } else if (!child.safeParse(undefined).success) {
        return UNREADABLE;
      }
    }
    return out;
  }
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((v) => rescue(schema.element as z.ZodType, v)).filter((v) => v !== UNREADABLE);
  }
  if (schema instanceof z.ZodRecord && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const got = rescue(schema.valueType as z.ZodType, v);
      if (got !== UNREADABLE) out[key] = got;
    }
    return out;
  }
  return UNREADABLE;
}

/**
 * A list read item by item: an item with an unexpected value where the contract allows none is kept with that
 * field left out; an item whose essentials are unreadable (no uid, say) is left out, never the page.
 */
const tolerantList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .transform((raw): z.output<T>[] =>
      raw.map((r) => rescue(item, r)).filter((r): r is z.output<T> => r !== UNREADABLE),
    );

/** Every paged list of the v4 API. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: tolerantList(item), next: nextCursor });
