/**
 * Zod building blocks shared by the resource schemas. Parsing is as tolerant as the published contracts:
 * unknown fields are stripped, fields the contract does not require may be missing, so one honest
 * production response never fails a whole page.
 */
import { z } from 'zod';

export const nullableString = z.string().nullable();

/** `next` is documented as string | null; an empty string (or a missing field) also means "last page". */
export const nextCursor = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v): string | null => (v === undefined || v === null || v === '' ? null : String(v)));

/** Every paged list of the v4 API. */
export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next: nextCursor });
