/** Credentials global search (v4, search tier: about one call per second, quota in response headers). */
import { z } from 'zod';
import type { ResourceContext, SearchPage } from '../core/context.js';
import { quotaFrom } from '../core/context.js';
import { type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import { nullableString, page } from '../core/schema.js';
import { dateRange, definedOnly, type Json, type Order, Problems, queryObject } from '../core/wire.js';

export const CREDENTIAL_INCLUDES = ['known_password_id', 'auth_domains', 'urls'] as const;
export type CredentialInclude = (typeof CREDENTIAL_INCLUDES)[number];

const CredentialSourceSchema = z.object({
  id: z.string(),
  name: nullableString.optional(),
  description_en: nullableString.optional(),
  description_fr: nullableString.optional(),
  breached_at: nullableString.optional(),
  leaked_at: nullableString.optional(),
  is_alert_enabled: z.boolean().optional(),
  pii_tags: z.array(z.string()).nullish(),
  url: nullableString.optional(),
});

const CredentialSchema = z.object({
  id: z.number(),
  identity_name: z.string(),
  domain: nullableString.optional(),
  hash: nullableString.optional(),
  hash_type: nullableString.optional(),
  imported_at: z.string(),
  source_id: z.string(),
  source: CredentialSourceSchema.nullish(),
  known_password_id: z.number().nullish(),
  credential_hash: nullableString.optional(),
  event_uid: nullableString.optional(),
  auth_domains: z.array(z.string()).optional(),
  urls: z.array(z.string()).optional(),
});
export type Credential = z.infer<typeof CredentialSchema>;
/** @internal */
export const CredentialPageSchema = page(CredentialSchema);

/** The contract's five query objects (`CredentialsQueryPayload.query`). @internal */
export type CredentialQuery =
  | { type: 'domain'; fqdn: string }
  | { type: 'auth_domain'; fqdn: string }
  | { type: 'email'; email: string }
  | { type: 'keyword'; keyword: string }
  | { type: 'secret'; secret: string };

export interface CredentialSearchInput {
  query: CredentialQuery;
  /** ISO-8601 date-times bounding `imported_at`. */
  importedAt?: { gte?: string; lte?: string };
  include?: CredentialInclude[];
  order?: Order;
  /** 1–10000. */
  size?: number;
  from?: string;
}

const CREDENTIAL_QUERY_FIELDS: Record<CredentialQuery['type'], readonly string[]> = {
  domain: ['fqdn'],
  auth_domain: ['fqdn'],
  email: ['email'],
  keyword: ['keyword'],
  secret: ['secret'],
};

/** @internal */
export function credentialSearchBody(input: CredentialSearchInput): Json {
  const problems = new Problems();
  problems.size('size', input.size, 1, 10_000);
  const query = queryObject(input.query, CREDENTIAL_QUERY_FIELDS, problems);
  for (const inc of input.include ?? []) {
    if (!(CREDENTIAL_INCLUDES as readonly string[]).includes(inc)) {
      problems.add('include', `unknown value ${JSON.stringify(inc)}`);
    }
  }
  problems.throwIfAny('credentials search');
  const importedAt = dateRange(input.importedAt, ['gte', 'lte']);
  return definedOnly({
    query,
    filters: importedAt ? { imported_at: importedAt } : undefined,
    include: input.include,
    order: input.order,
    size: input.size,
    from: input.from,
  });
}

export interface CredentialsApi {
  searchCredentials(input: CredentialSearchInput): Promise<SearchPage<Credential>>;
  iterateCredentials(
    input: CredentialSearchInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Credential, SearchPage<Credential>>, void, undefined>;
}

export function credentialsResource({ call, v4 }: ResourceContext): CredentialsApi {
  const searchCredentials = async (input: CredentialSearchInput): Promise<SearchPage<Credential>> => {
    const res = await call({
      method: 'POST',
      path: `${v4}/credentials/global/_search`,
      body: credentialSearchBody(input),
      tier: 'search',
      idempotent: true,
      auth: 'token',
      schema: CredentialPageSchema,
    });
    return { ...res.data, quota: quotaFrom(res.headers) };
  };
  return { searchCredentials, iterateCredentials: (input, o) => paginate(searchCredentials, input, o) };
}
