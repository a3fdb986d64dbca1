/**
 * The tenant's identifiers (v4, published contract: `GET …/v4/identifiers/`). The list takes no text query:
 * callers read its pages (up to 100 items each) and match names themselves.
 */
import { z } from 'zod';
import { type Page, type PageStep, type PaginateOptions, paginate } from '../core/paging.js';
import type { ResourceSession } from '../core/resource-session.js';
import { page } from '../core/schema.js';
import { Problems, type QueryParams } from '../core/wire.js';

/** `types` of the list (the discriminator of an identifier's `data`). */
const IDENTIFIER_TYPES = [
  'bin',
  'ip',
  'keyword',
  'azure_tenant',
  'domain',
  'search_query',
  'github_repository',
  'secret',
  'identity',
] as const;
type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

const IDENTIFIER_ORDER_BY = ['id', 'name', 'type'] as const;
type IdentifierOrderBy = (typeof IDENTIFIER_ORDER_BY)[number];

export const MAX_IDENTIFIER_PAGE_SIZE = 100;

/**
 * An identifier. The contract requires many fields (categories, severities, enrichments…); only `id` and
 * `name` are needed here, so the rest is optional and `data` is kept loose (an unknown type never fails a page).
 */
const IdentifierSchema = z.object({
  id: z.number(),
  name: z.string(),
  tenant_id: z.number().optional(),
  data: z
    .looseObject({
      type: z.string().optional(),
      // An identity's attributes: {type: email|username|name, …}.
      attributes: z.array(z.looseObject({ type: z.string().optional() })).optional(),
    })
    .optional(),
  is_disabled: z.boolean().optional(),
  updated_at: z.string().optional(),
});
export type Identifier = z.infer<typeof IdentifierSchema>;
const IdentifierPageSchema = page(IdentifierSchema);

interface IdentifierListInput {
  from?: string;
  /** 1–100 (the API's default is 20). */
  size?: number;
  orderBy?: IdentifierOrderBy;
  types?: IdentifierType[];
  isDisabled?: boolean;
}

function identifierQuery(input: IdentifierListInput): QueryParams {
  const problems = new Problems();
  problems.size('size', input.size, 1, MAX_IDENTIFIER_PAGE_SIZE);
  for (const t of input.types ?? []) {
    if (!(IDENTIFIER_TYPES as readonly string[]).includes(t)) problems.add('types', `unknown type ${t}`);
  }
  problems.throwIfAny('identifiers request');
  const q: QueryParams = [];
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  if (input.orderBy !== undefined) q.push(['order_by', input.orderBy]);
  if (input.isDisabled !== undefined) q.push(['is_disabled', String(input.isDisabled)]);
  // An array parameter: repeated (`types=domain&types=ip`).
  for (const t of input.types ?? []) q.push(['types', t]);
  return q;
}

export interface IdentifiersApi {
  listIdentifiers(input?: IdentifierListInput): Promise<Page<Identifier>>;
  iterateIdentifiers(
    input?: IdentifierListInput,
    opts?: PaginateOptions,
  ): AsyncGenerator<PageStep<Identifier>, void, undefined>;
}

export function identifiersResource({ call, v4 }: ResourceSession): IdentifiersApi {
  const listIdentifiers = async (input: IdentifierListInput = {}) =>
    (
      await call({
        method: 'GET',
        // The trailing slash is part of the published path.
        path: `${v4}/identifiers/`,
        query: identifierQuery(input),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: IdentifierPageSchema,
      })
    ).data;
  return {
    listIdentifiers,
    iterateIdentifiers: (input = {}, o) => paginate(listIdentifiers, input, o),
  };
}

/**
 * What people call an identifier's kind: its data type, and for an identity the kinds of its attributes
 * (`email`, `username`, `name`), since the contract files e-mails and usernames under `identity`.
 */
export const IDENTIFIER_KINDS = [
  'domain',
  'email',
  'username',
  'name',
  'keyword',
  'ip',
  'bin',
  'azure_tenant',
  'github_repository',
  'search_query',
  'secret',
  'identity',
] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export function identifierKinds(identifier: Pick<Identifier, 'data'>): string[] {
  const type = identifier.data?.type;
  if (type === undefined || type === '') return [];
  const kinds = [type];
  for (const attribute of identifier.data?.attributes ?? []) {
    if (typeof attribute.type === 'string' && !kinds.includes(attribute.type)) kinds.push(attribute.type);
  }
  return kinds;
}
