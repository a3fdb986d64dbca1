/**
 * Changing the tenant's identifiers (v4, published contract): `POST …/identifiers/`, `GET|PUT|DELETE
 * …/identifiers/{id}`. The update takes the whole identifier (data, categories, severities are required), so
 * enabling or disabling one reads it first and sends it back with `is_disabled` changed.
 */
import { z } from 'zod';
import type { ResourceSession } from '../core/resource-session.js';
import { integerSegment, type Json, Problems } from '../core/wire.js';
import { EVENT_FILTER_TYPES, type EventFilterType } from './event-types.js';

/** The kinds of value a person can watch from Slack, and the contract's `data` each becomes. */
export const WATCH_TYPES = [
  'domain',
  'keyword',
  'email',
  'username',
  'ip',
  'bin',
  'github_repository',
  'azure_tenant',
] as const;
export type WatchType = (typeof WATCH_TYPES)[number];

const SEVERITY_LEVELS = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type WatchSeverity = (typeof SEVERITY_LEVELS)[number];

/**
 * The contract's `SearchType`: what an identifier's `categories` may hold. An identifier is matched only in
 * the categories it lists; the contract gives no meaning to an empty list, so Vigil never sends one. The same
 * enum as the events' `type` filter.
 */
export const SEARCH_TYPES = EVENT_FILTER_TYPES;
export type SearchType = EventFilterType;

/** A new identifier watches every published category (but the experimental one) at every severity. @internal */
export const DEFAULT_WATCH_CATEGORIES: readonly SearchType[] = SEARCH_TYPES.filter(
  (t) => t !== 'experimental',
);

/** As the API answers; only what Vigil shows or sends back is required. */
const IdentifierDetailSchema = z.object({
  id: z.number(),
  name: z.string(),
  data: z.looseObject({ type: z.string() }),
  categories: z.array(z.string()).default([]),
  emerging_categories: z.array(z.string()).default([]),
  severities: z.array(z.string()).default([]),
  group_id: z.number().nullable().optional(),
  is_disabled: z.boolean().optional(),
});
export type IdentifierDetail = z.infer<typeof IdentifierDetailSchema>;

interface NewIdentifierInput {
  type: WatchType;
  value: string;
  /** Absent: the API names it after its value. */
  name?: string;
  /** Absent: `DEFAULT_WATCH_CATEGORIES`. */
  categories?: readonly SearchType[];
  /** Absent: every severity. */
  severities?: readonly WatchSeverity[];
}

/** The contract's `data` for a value of `type`; e-mails and usernames are identities of one attribute. */
function identifierDataOf(type: WatchType, value: string): Json {
  switch (type) {
    case 'domain':
      return { type, fqdn: value };
    case 'keyword':
      return { type, keyword: value };
    case 'ip':
      return { type, ip: value };
    case 'bin':
      return { type, bin: value };
    case 'azure_tenant':
      return { type, tenant_id: value };
    case 'email':
      return { type: 'identity', attributes: [{ type: 'email', email: value }] };
    case 'username':
      return { type: 'identity', attributes: [{ type: 'username', username: value }] };
    case 'github_repository': {
      const [owner = '', repo = ''] = value.split('/');
      return { type, repo_owner: owner, repo_name: repo };
    }
  }
}

/** The fields each `data` type has in the contract: what is sent back (the API refuses any other). */
const DATA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  domain: ['fqdn'],
  keyword: ['keyword'],
  ip: ['ip'],
  bin: ['bin'],
  azure_tenant: ['tenant_id'],
  search_query: ['search_query'],
  secret: ['secret'],
  github_repository: ['repo_owner', 'repo_name'],
  identity: ['attributes'],
};
const ATTRIBUTE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  email: ['email'],
  username: ['username'],
  name: ['first_name', 'last_name', 'is_strict'],
};

function only(source: Record<string, unknown>, type: string, fields: readonly string[] | undefined): Json {
  if (fields === undefined) return { ...source };
  const out: Json = { type };
  for (const f of fields) if (source[f] !== undefined) out[f] = source[f];
  return out;
}

/** An identifier's `data` as read, reduced to what the contract declares for its type. */
function dataToSend(data: IdentifierDetail['data']): Json {
  const out = only(data, data.type, DATA_FIELDS[data.type]);
  if (data.type === 'identity' && Array.isArray(out.attributes)) {
    out.attributes = (out.attributes as Array<Record<string, unknown>>).map((a) => {
      const type = typeof a.type === 'string' ? a.type : '';
      return only(a, type, ATTRIBUTE_FIELDS[type]);
    });
  }
  return out;
}

function checkNew(input: NewIdentifierInput): void {
  const problems = new Problems();
  if (!(WATCH_TYPES as readonly string[]).includes(input.type))
    problems.add('type', `unknown type ${input.type}`);
  if (input.value.trim() === '') problems.add('value', 'is empty');
  if (input.type === 'github_repository' && !/^[^/\s]+\/[^/\s]+$/.test(input.value))
    problems.add('value', 'is not <owner>/<repository>');
  // An identifier watching no category or no severity would never produce an event.
  if (input.categories !== undefined) {
    if (input.categories.length === 0) problems.add('categories', 'is empty');
    for (const c of input.categories)
      if (!(SEARCH_TYPES as readonly string[]).includes(c))
        problems.add('categories', `unknown category ${c}`);
  }
  if (input.severities !== undefined) {
    if (input.severities.length === 0) problems.add('severities', 'is empty');
    for (const s of input.severities)
      if (!(SEVERITY_LEVELS as readonly string[]).includes(s))
        problems.add('severities', `unknown severity ${s}`);
  }
  problems.throwIfAny('identifier');
}

export interface IdentifierChangesApi {
  createIdentifier(input: NewIdentifierInput): Promise<IdentifierDetail>;
  getIdentifier(id: number): Promise<IdentifierDetail>;
  /** Sets `is_disabled`, sending the identifier back as it is otherwise. */
  setIdentifierDisabled(id: number, disabled: boolean): Promise<IdentifierDetail>;
  deleteIdentifier(id: number): Promise<void>;
}

export function identifierChangesResource({ call, v4 }: ResourceSession): IdentifierChangesApi {
  const route = `${v4}/identifiers/{identifier_id}`;
  const one = (id: number) => `${v4}/identifiers/${integerSegment(id, 'identifierId')}`;
  const getIdentifier = async (id: number) =>
    (
      await call({
        method: 'GET',
        path: one(id),
        route,
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: IdentifierDetailSchema,
      })
    ).data;
  return {
    async createIdentifier(input) {
      checkNew(input);
      const body: Json = {
        data: identifierDataOf(input.type, input.value.trim()),
        categories: [...new Set(input.categories ?? DEFAULT_WATCH_CATEGORIES)],
        emerging_categories: [],
        severities: [...new Set(input.severities ?? SEVERITY_LEVELS)],
      };
      if (input.name !== undefined) body.name = input.name;
      const { data } = await call({
        method: 'POST',
        path: `${v4}/identifiers/`,
        body,
        tier: 'ordinary',
        // A repeat would create a second identifier.
        idempotent: false,
        auth: 'token',
        schema: IdentifierDetailSchema,
      });
      return data;
    },
    getIdentifier,
    async setIdentifierDisabled(id, disabled) {
      const current = await getIdentifier(id);
      const body: Json = {
        data: dataToSend(current.data),
        name: current.name,
        categories: current.categories,
        emerging_categories: current.emerging_categories,
        severities: current.severities,
        is_disabled: disabled,
      };
      if (current.group_id !== undefined) body.group_id = current.group_id;
      const { data } = await call({
        method: 'PUT',
        path: one(id),
        route,
        body,
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: IdentifierDetailSchema,
      });
      return data;
    },
    async deleteIdentifier(id) {
      await call({
        method: 'DELETE',
        path: one(id),
        route,
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: null,
      });
    },
  };
}
