/** Credentials global search (v4, search tier: about one call per second, quota in response headers). */
import { z } from 'zod';
import { type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession, SearchPage } from '../core/resource-session.js';
import { quotaFrom } from '../core/resource-session.js';
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

/** `LeakedCredentialsBulkActionType`: remediate covers identical pairs to come; ignore, every pair of the identity. */
const CREDENTIAL_ACTIONS = ['remediate', 'unremediate', 'ignore', 'unignore'] as const;
export type CredentialActionType = (typeof CREDENTIAL_ACTIONS)[number];

/** The contract's `maxItems` of `CredentialActionRequestBody.targets`. */
const MAX_CREDENTIAL_TARGETS = 100;

/** One body per batch of at most 100 distinct `credential_hash` targets. */
function credentialActionBodies(action: CredentialActionType, hashes: readonly string[]): Json[] {
  const problems = new Problems();
  if (!(CREDENTIAL_ACTIONS as readonly string[]).includes(action))
    problems.add('action', `unknown value ${JSON.stringify(action)}`);
  hashes.forEach((h, i) => {
    if (typeof h !== 'string' || h.length === 0)
      problems.add(`hashes.${i}`, 'must be a non-empty credential hash');
  });
  problems.throwIfAny('credential action');
  const unique = [...new Set(hashes)];
  const bodies: Json[] = [];
  for (let i = 0; i < unique.length; i += MAX_CREDENTIAL_TARGETS) {
    bodies.push({
      targets: unique.slice(i, i + MAX_CREDENTIAL_TARGETS).map((credential_hash) => ({ credential_hash })),
      action: { type: action },
    });
  }
  return bodies;
}

export interface CredentialsApi {
  searchCredentials(input: CredentialSearchInput): Promise<SearchPage<Credential>>;
  /**
   * `POST …/credentials/actions`, in batches of ≤100 targets; not repeated after an unknown outcome (the
   * caller's act-once record decides). Returns the number of calls made.
   */
  credentialAction(input: { action: CredentialActionType; hashes: readonly string[] }): Promise<number>;
  iterateCredentials(
    input: CredentialSearchInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Credential, SearchPage<Credential>>, void, undefined>;
}

export function credentialsResource({ call, v4 }: ResourceSession): CredentialsApi {
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
  const credentialAction = async (input: {
    action: CredentialActionType;
    hashes: readonly string[];
  }): Promise<number> => {
    let calls = 0;
    for (const body of credentialActionBodies(input.action, input.hashes)) {
      await call({
        method: 'POST',
        path: `${v4}/credentials/actions`,
        body,
        tier: 'ordinary',
        idempotent: false,
        auth: 'token',
        schema: null,
      });
      calls++;
    }
    return calls;
  };
  return {
    searchCredentials,
    credentialAction,
    iterateCredentials: (input, o) => paginate(searchCredentials, input, o),
  };
}
