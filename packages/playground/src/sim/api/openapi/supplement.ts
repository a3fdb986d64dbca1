/**
 * What the published documents leave out, written down in their own terms so one validator reads it all:
 * - endpoints the documents do not publish (docs/API-NOTES.md): token generation and test (#tokens), sandbox
 *   uploads (#sandbox-uploads) and the intel requests endpoint that replaces the deprecated report requests
 *   (#report-requests: "not published anywhere yet", its shape is the simulator's guess);
 * - the v2 tenants list, whose Swagger entry declares no paging parameters and describes `items` as a
 *   single object whose `items` is itself: docs/API-NOTES.md#tenants replaces it (`{items, next,
 *   total_count}`, `next` null after the last page, `from` and `size` as the paging parameters).
 * Refs name the documents by their registered ids (see documents.ts).
 */
import type { Schema } from './refs.js';

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

export const SPEC_SCHEMAS: Record<string, Schema> = {
  // docs/API-NOTES.md#event-uids: an activity's highlights, shaped as an event's (field → fragments).
  ActivityHighlights: {
    type: 'object',
    required: ['highlights'],
    properties: {
      highlights: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
  },
  // docs/API-NOTES.md#tokens: `tenant_id` optional (the key's default tenant when omitted).
  TokenGenerateBody: {
    type: 'object',
    properties: { tenant_id: nullable({ type: 'integer' }) },
  },
  // docs/API-NOTES.md#tokens: both fields; the refresh token itself travels in cookies.
  Token: {
    type: 'object',
    required: ['token', 'refresh_token_exp'],
    properties: { token: { type: 'string' }, refresh_token_exp: { type: 'number' } },
  },
  // docs/API-NOTES.md#tokens: the authenticated tenant, key, organization, user and scopes.
  TokenTest: {
    type: 'object',
    required: ['api_key_id', 'organization_id', 'scopes', 'tenant_id', 'user_email', 'user_id'],
    properties: {
      api_key_id: { type: 'integer' },
      organization_id: { type: 'integer' },
      scopes: { type: 'array', items: { type: 'string' } },
      tenant_id: { type: 'integer' },
      user_email: { type: 'string' },
      user_id: { type: 'integer' },
    },
  },
  // docs/API-NOTES.md#sandbox-uploads: `{filename}`. An empty name is refused (the simulator's choice).
  SandboxUploadBody: {
    type: 'object',
    required: ['filename'],
    properties: { filename: { type: 'string', minLength: 1 } },
  },
  // docs/API-NOTES.md#sandbox-uploads: `{upload_url}`, and `upload_fields` in one published revision.
  SandboxUpload: {
    type: 'object',
    required: ['upload_url'],
    properties: {
      upload_url: { type: 'string' },
      upload_fields: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  // docs/API-NOTES.md#report-requests: the replacement's shape is unpublished; this is the simulator's guess (see routes/reports.ts).
  IntelRequest: {
    type: 'object',
    required: ['id', 'status', 'created_at', 'updated_at', 'intel', 'error'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      status: { type: 'string', enum: ['processing', 'completed', 'error'] },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
      intel: nullable({ $ref: 'firework-v4-openapi.json#/components/schemas/ApiReport' }),
      error: nullable({
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      }),
    },
  },
  // README "Paging" and "Hidden parameter names"; the tenant fields are Swagger's `Tenant` (none required:
  // the specification says "Fields of a tenant item: not shown").
  TenantList: {
    type: 'object',
    required: ['items', 'next'],
    properties: {
      items: { type: 'array', items: { $ref: 'firework-v2-swagger.json#/definitions/Tenant' } },
      next: nullable({ type: 'string' }),
      total_count: nullable({ type: 'integer' }),
    },
  },
};

const ref = (name: string): Schema => ({ $ref: `specification.json#/components/schemas/${name}` });
const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const ok = (schema: Schema) => ({ responses: { '200': { description: 'OK', ...json(schema) } } });

/** OpenAPI 3.1 path items, keyed like the published v4 document (family `firework`). */
export const SPEC_PATHS: Record<string, Record<string, unknown>> = {
  '/tokens/generate': {
    post: { requestBody: { required: false, ...json(ref('TokenGenerateBody')) }, ...ok(ref('Token')) },
  },
  '/tokens/test': { get: ok(ref('TokenTest')) },
  '/firework/v4/sandbox/uploads': {
    post: { requestBody: { required: true, ...json(ref('SandboxUploadBody')) }, ...ok(ref('SandboxUpload')) },
  },
  '/firework/v4/threat_flow/intel/requests/{id}': {
    get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      ...ok(ref('IntelRequest')),
    },
  },
};

/** Operations of the published documents that the README completes: extra parameters, a working response. */
export const OVERRIDES: Record<string, { parameters?: Schema[]; response?: Schema }> = {
  // docs/API-NOTES.md#event-uids: the Swagger entry describes the answer in words only.
  'POST /firework/v2/activities/{index}/{source}/{id}/highlights': { response: ref('ActivityHighlights') },
  'GET /firework/v2/organizations/{organization_id}/tenants': {
    parameters: [
      { name: 'from', in: 'query', required: false, schema: nullable({ type: 'string' }) },
      // Bounds are the simulator's choice; the README names the parameter only.
      {
        name: 'size',
        in: 'query',
        required: false,
        schema: { type: 'integer', exclusiveMinimum: 0, maximum: 100, default: 20 },
      },
    ],
    response: ref('TenantList'),
  },
};
