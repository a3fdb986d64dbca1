/**
 * Changing identifiers (published contract): `POST …/v4/identifiers/` creates one in the token's tenant (its
 * name defaults to its value), `GET|PUT|DELETE …/v4/identifiers/{identifier_id}` read, replace (the whole
 * body, `is_disabled` included) and delete it (202). Another tenant's identifier is 404. Watching what the
 * tenant already watches is a 422 on `data` (the contract's only documented refusal).
 */
import { requireSession } from '../auth.js';
import { fail, type Handler, json, type RouteContext, validationFailure } from '../http.js';
import type { IdentifierKind, SimIdentifier } from '../types.js';
import { identifierAnswer, sameData } from './identifiers.js';

interface IdentifierBody {
  data: Record<string, unknown> & { type: string; attributes?: Array<Record<string, unknown>> };
  name?: string | null;
  categories: string[];
  emerging_categories: string[];
  severities: string[];
  is_disabled?: boolean | null;
}

/** The value a person typed, and the simulator's kind, from the contract's `data`. */
function watchedValue(data: IdentifierBody['data']): { value: string; kind: IdentifierKind } {
  const first = data.attributes?.[0];
  switch (data.type) {
    case 'domain':
      return { value: String(data.fqdn), kind: 'domain' };
    case 'ip':
      return { value: String(data.ip), kind: 'ip' };
    case 'bin':
      return { value: String(data.bin), kind: 'bin' };
    case 'azure_tenant':
      return { value: String(data.tenant_id), kind: 'azure_tenant' };
    case 'github_repository':
      return { value: `${String(data.repo_owner)}/${String(data.repo_name)}`, kind: 'github_repository' };
    case 'identity':
      if (first?.type === 'email') return { value: String(first.email), kind: 'email' };
      if (first?.type === 'username') return { value: String(first.username), kind: 'username' };
      return { value: `${String(first?.first_name)} ${String(first?.last_name)}`, kind: 'name' };
    case 'search_query':
      return { value: String(data.search_query), kind: 'keyword' };
    case 'secret':
      return { value: 'secret', kind: 'keyword' };
    default:
      return { value: String(data.keyword), kind: 'keyword' };
  }
}

function refuseDuplicate(ctx: RouteContext, tenantId: number, data: IdentifierBody['data'], except?: number) {
  const clash = ctx.state.identifiersOf(tenantId).find((i) => i.id !== except && sameData(i, data));
  if (clash) {
    validationFailure([
      {
        loc: ['body', 'data'],
        msg: `Value error, this tenant already has an identifier for this value (${clash.id})`,
        type: 'value_error',
      },
    ]);
  }
}

function apply(i: SimIdentifier, body: IdentifierBody, now: number): void {
  i.data = body.data;
  i.categories = body.categories;
  i.emergingCategories = body.emerging_categories;
  i.severities = body.severities;
  i.updatedAt = now;
}

export const createIdentifier: Handler = (ctx) => {
  const session = requireSession(ctx);
  const body = ctx.input.body as IdentifierBody;
  refuseDuplicate(ctx, session.tenantId, body.data);
  const { value, kind } = watchedValue(body.data);
  const id = Math.max(0, ...ctx.state.identifiers.map((i) => i.id)) + 1;
  const name = body.name?.trim() ? body.name : value;
  const identifier: SimIdentifier = { id, tenantId: session.tenantId, name, kind };
  apply(identifier, body, ctx.clock.now());
  ctx.state.identifiers.push(identifier);
  return json(200, identifierAnswer(ctx, identifier));
};

function findIdentifier(ctx: RouteContext): SimIdentifier {
  const session = requireSession(ctx);
  const id = Number(ctx.input.path.identifier_id);
  const found = ctx.state.identifiers.find((i) => i.id === id && i.tenantId === session.tenantId);
  return found ?? fail(404, 'NOT_FOUND', `Identifier ${id} not found`);
}

export const getIdentifier: Handler = (ctx) => json(200, identifierAnswer(ctx, findIdentifier(ctx)));

export const updateIdentifier: Handler = (ctx) => {
  const identifier = findIdentifier(ctx);
  const body = ctx.input.body as IdentifierBody;
  refuseDuplicate(ctx, identifier.tenantId, body.data, identifier.id);
  apply(identifier, body, ctx.clock.now());
  if (body.name?.trim()) identifier.name = body.name;
  if (body.is_disabled !== undefined && body.is_disabled !== null) identifier.disabled = body.is_disabled;
  return json(200, identifierAnswer(ctx, identifier));
};

export const deleteIdentifier: Handler = (ctx) => {
  const identifier = findIdentifier(ctx);
  ctx.state.identifiers.splice(ctx.state.identifiers.indexOf(identifier), 1);
  return json(202, null);
};
