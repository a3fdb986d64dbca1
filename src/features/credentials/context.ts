/**
 * The context behind a credentials message. It keeps the search (never a secret query), the cursor that
 * produced the page (so Reveal can fetch it again) and the rows as shown: MASKED. The full value is only
 * ever in an API response, never here.
 */
import { z } from 'zod';
import type { Credential, CredentialSearchInput } from '../../api/index.js';
import { CREDENTIAL_INCLUDES } from '../../api/index.js';
import { ContextStore, PAGING_FIELDS, SharedMessageSchema } from '../../domain/contexts.js';
import { maskValue } from '../../domain/mask.js';
import type { Repositories } from '../../store/index.js';
import { SEARCH_CONTEXT_TTL_MS } from '../../store/index.js';
import { MAX_EXPORT_LIMIT } from './export-size.js';

/** Rows per interactive page at most (the parser's default is 10). */
const MAX_CREDS_ROWS = 25;
/** Auth domains kept per row for display; the count says how many there were. */
const SHOWN_AUTH_DOMAINS = 3;

const StoredQuerySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('domain'), fqdn: z.string().min(1) }),
  z.object({ type: z.literal('auth_domain'), fqdn: z.string().min(1) }),
  z.object({ type: z.literal('email'), email: z.string().min(1) }),
  z.object({ type: z.literal('keyword'), keyword: z.string().min(1) }),
]);

/** The search without `from` and `size`: identical on every page. Secret queries are never stored. */
export const StoredCredsSearchSchema = z.object({
  query: StoredQuerySchema,
  importedAt: z.object({ gte: z.string().optional(), lte: z.string().optional() }).optional(),
  include: z.array(z.enum(CREDENTIAL_INCLUDES)).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});
export type StoredCredsSearch = z.infer<typeof StoredCredsSearchSchema>;

const MaskedRowSchema = z.object({
  id: z.number(),
  identity: z.string(),
  domain: z.string().optional(),
  sourceId: z.string(),
  sourceName: z.string().optional(),
  breachedAt: z.string().optional(),
  leakedAt: z.string().optional(),
  importedAt: z.string(),
  hashType: z.string().optional(),
  /** A few leading characters at most (see mask.ts). */
  masked: z.string(),
  authDomains: z.object({ count: z.number().int().nonnegative(), first: z.array(z.string()) }).optional(),
  knownPasswordId: z.number().nullable().optional(),
  /**
   * The API's id of the identity and password pair, which credential actions target. Kept with the row
   * (like the event uids of event results) so acting costs no search.
   */
  credentialHash: z.string().min(1).max(200).optional(),
});
export type MaskedRow = z.infer<typeof MaskedRowSchema>;

const QuotaSchema = z.object({
  remaining: z.number().optional(),
  batchReached: z.boolean().optional(),
});
export type Quota = z.infer<typeof QuotaSchema>;

export const CredsContextSchema = z.object({
  v: z.literal(1),
  ...PAGING_FIELDS,
  /** Undefined for a search made through the password form: its query was never kept. */
  search: StoredCredsSearchSchema.optional(),
  /** Total rows the user asked for (`limit:`). */
  limit: z.number().int().min(1).max(MAX_EXPORT_LIMIT),
  pageSize: z.number().int().min(1).max(MAX_CREDS_ROWS),
  /** The `from` that produced this page (absent on the first): Reveal fetches this page again. */
  from: z.string().optional(),
  /** Rows shown on the pages before this one. */
  offset: z.number().int().nonnegative(),
  rows: z.array(MaskedRowSchema).max(MAX_CREDS_ROWS),
  quota: QuotaSchema.optional(),
  /** Where the message lives once shared in a channel. */
  message: SharedMessageSchema.optional(),
});
export type CredsContext = z.infer<typeof CredsContextSchema>;

/** The stored part of a search input; undefined for a secret query (never stored). */
export function storedSearchOf(input: CredentialSearchInput): StoredCredsSearch | undefined {
  if (input.query.type === 'secret') return undefined;
  const out: StoredCredsSearch = { query: { ...input.query } };
  if (input.importedAt !== undefined) out.importedAt = { ...input.importedAt };
  if (input.include !== undefined) out.include = [...input.include];
  if (input.order !== undefined) out.order = input.order;
  return out;
}

export function searchInputOf(search: StoredCredsSearch, size: number, from?: string): CredentialSearchInput {
  const input: CredentialSearchInput = { query: { ...search.query }, size };
  const range = search.importedAt;
  if (range !== undefined) {
    input.importedAt = {};
    if (range.gte !== undefined) input.importedAt.gte = range.gte;
    if (range.lte !== undefined) input.importedAt.lte = range.lte;
  }
  if (search.include !== undefined) input.include = [...search.include];
  if (search.order !== undefined) input.order = search.order;
  if (from !== undefined) input.from = from;
  return input;
}

const defined = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** A credential as shown in Slack: the value masked, auth domains cut to the first few. */
export function maskedRowOf(c: Credential): MaskedRow {
  const row: MaskedRow = {
    id: c.id,
    identity: c.identity_name,
    sourceId: c.source_id,
    importedAt: c.imported_at,
    masked: maskValue(c.hash),
  };
  if (defined(c.domain)) row.domain = c.domain;
  if (defined(c.source?.name)) row.sourceName = c.source.name;
  if (defined(c.source?.breached_at)) row.breachedAt = c.source.breached_at;
  if (defined(c.source?.leaked_at)) row.leakedAt = c.source.leaked_at;
  if (defined(c.hash_type)) row.hashType = c.hash_type;
  if (c.auth_domains !== undefined)
    row.authDomains = { count: c.auth_domains.length, first: c.auth_domains.slice(0, SHOWN_AUTH_DOMAINS) };
  if (c.known_password_id !== undefined) row.knownPasswordId = c.known_password_id;
  if (defined(c.credential_hash) && c.credential_hash !== '' && c.credential_hash.length <= 200)
    row.credentialHash = c.credential_hash;
  return row;
}

/** Saved for 24 h with a note of the command; a late click is told the exact command to run again. */
export class CredsContextStore extends ContextStore<typeof CredsContextSchema> {
  constructor(repos: Pick<Repositories, 'searchContexts' | 'commandNotes'>) {
    super(repos, CredsContextSchema, {
      ttlMs: SEARCH_CONTEXT_TTL_MS,
      expired: { kind: 'results', fallbackCommand: '/vigil creds domain <domain>' },
    });
  }
}
