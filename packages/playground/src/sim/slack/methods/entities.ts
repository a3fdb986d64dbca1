/**
 * Work Objects: `chat.unfurl` with `metadata.entities` and `entity.presentDetails`, held to the published
 * shapes on their own (nothing imported from Vigil): Slack's node SDK types `EntityMetadata` and
 * `ChatUnfurlArguments` (https://github.com/slackapi/node-slack-sdk, packages/types/src/message-metadata.ts
 * and packages/web-api/src/types/request/chat.ts, entity.ts) and the entity.presentDetails reference
 * (https://docs.slack.dev/reference/methods/entity.presentDetails). A payload off those shapes is refused
 * with `invalid_metadata` (or `invalid_arguments`) and the json-pointer of each problem; what was sent is in
 * the fake's recorded calls.
 */
import type { Json } from '../types.js';
import { type BotMethod, fail, failWithMessages, str } from './common.js';

const ENTITY_TYPES = [
  'slack#/entities/task',
  'slack#/entities/file',
  'slack#/entities/item',
  'slack#/entities/incident',
  'slack#/entities/content_item',
];
/** The typed fields each entity type has (`fields`); anything else goes in `custom_fields`. */
const FIELDS: Record<string, readonly string[]> = {
  'slack#/entities/incident': [
    'status',
    'priority',
    'urgency',
    'created_by',
    'assigned_to',
    'date_created',
    'date_updated',
    'description',
    'service',
  ],
  'slack#/entities/task': [
    'description',
    'created_by',
    'date_created',
    'date_updated',
    'assignee',
    'status',
    'due_date',
    'priority',
  ],
  'slack#/entities/file': [
    'preview',
    'created_by',
    'date_created',
    'date_updated',
    'last_modified_by',
    'file_size',
    'mime_type',
    'full_size_preview',
  ],
  'slack#/entities/content_item': [
    'preview',
    'description',
    'created_by',
    'date_created',
    'date_updated',
    'last_modified_by',
  ],
  'slack#/entities/item': [],
};
const TIMESTAMP_FIELDS = new Set(['date_created', 'date_updated']);
const TYPED_FIELDS = new Set(['created_by', 'assigned_to', 'assignee', 'last_modified_by', 'due_date']);
const CUSTOM_TYPES = new Set([
  'integer',
  'string',
  'array',
  'boolean',
  'slack#/types/date',
  'slack#/types/timestamp',
  'slack#/types/image',
  'slack#/types/channel_id',
  'slack#/types/user',
  'slack#/types/entity_ref',
  'slack#/types/link',
  'slack#/types/email',
]);
const ERROR_STATUSES = new Set([
  'restricted',
  'internal_error',
  'not_found',
  'custom',
  'custom_partial_view',
  'timeout',
  'edit_error',
]);
const ENTITY_KEYS = new Set(['entity_type', 'entity_payload', 'external_ref', 'url', 'app_unfurl_url']);
const PAYLOAD_KEYS = new Set([
  'attributes',
  'fields',
  'custom_fields',
  'slack_file',
  'display_order',
  'actions',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** An argument Slack takes as JSON text in a form body, or as an object in a JSON body. */
function objectArg(body: Json, key: string): Json | undefined | 'invalid' {
  let raw = body[key];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      return 'invalid';
    }
  }
  return isObject(raw) ? raw : 'invalid';
}

function actionButtons(list: unknown, at: string, problems: string[]): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    problems.push(`${at} must be an array`);
    return;
  }
  list.forEach((b, i) => {
    if (!isObject(b) || !isString(b.text) || !isString(b.action_id))
      problems.push(`${at}/${i} must have text and action_id`);
  });
}

function customField(f: unknown, at: string, problems: string[]): void {
  if (!isObject(f) || !isString(f.key) || !isString(f.label) || !isString(f.type)) {
    problems.push(`${at} must have key, label and type`);
    return;
  }
  if (!CUSTOM_TYPES.has(f.type)) problems.push(`${at}/type ${JSON.stringify(f.type)} is not a field type`);
  if (f.type === 'slack#/types/user' && !isObject(f.user)) problems.push(`${at}/user is required`);
  if (f.type === 'array' && f.value !== undefined && !Array.isArray(f.value))
    problems.push(`${at}/value must be an array`);
  if ((f.type === 'slack#/types/timestamp' || f.type === 'integer') && typeof f.value !== 'number')
    problems.push(`${at}/value must be a number`);
}

/** Problems of one entity, as `EntityMetadata` declares it. */
function entityProblems(entity: unknown, at: string, opts: { unfurl: boolean }): string[] {
  const problems: string[] = [];
  if (!isObject(entity)) return [`${at} must be an object`];
  for (const key of Object.keys(entity))
    if (!ENTITY_KEYS.has(key)) problems.push(`${at}/${key} is not a property of an entity`);
  const type = entity.entity_type;
  if (!isString(type) || !ENTITY_TYPES.includes(type))
    problems.push(`${at}/entity_type must be one of ${ENTITY_TYPES.join(', ')}`);
  if (!isString(entity.url)) problems.push(`${at}/url is required`);
  if (opts.unfurl && !isString(entity.app_unfurl_url))
    problems.push(`${at}/app_unfurl_url is required by chat.unfurl`);
  if (!isObject(entity.external_ref) || !isString(entity.external_ref.id))
    problems.push(`${at}/external_ref/id is required`);
  const payload = entity.entity_payload;
  if (!isObject(payload)) return [...problems, `${at}/entity_payload is required`];
  for (const key of Object.keys(payload))
    if (!PAYLOAD_KEYS.has(key)) problems.push(`${at}/entity_payload/${key} is not a property`);
  const attributes = payload.attributes;
  if (!isObject(attributes) || !isObject(attributes.title) || !isString(attributes.title.text))
    problems.push(`${at}/entity_payload/attributes/title/text is required`);
  if (payload.fields !== undefined) {
    if (!isObject(payload.fields)) problems.push(`${at}/entity_payload/fields must be an object`);
    else {
      const allowed = FIELDS[String(type)] ?? [];
      for (const [key, value] of Object.entries(payload.fields)) {
        const where = `${at}/entity_payload/fields/${key}`;
        if (!allowed.includes(key)) problems.push(`${where} is not a field of ${String(type)}`);
        else if (!isObject(value)) problems.push(`${where} must be an object`);
        else if (TIMESTAMP_FIELDS.has(key) && typeof value.value !== 'number')
          problems.push(`${where}/value must be a number (seconds)`);
        else if (TYPED_FIELDS.has(key) && !isString(value.type)) problems.push(`${where}/type is required`);
        else if (
          !TIMESTAMP_FIELDS.has(key) &&
          !TYPED_FIELDS.has(key) &&
          key !== 'preview' &&
          !isString(value.value)
        )
          problems.push(`${where}/value must be a string`);
      }
    }
  }
  if (payload.custom_fields !== undefined) {
    if (!Array.isArray(payload.custom_fields))
      problems.push(`${at}/entity_payload/custom_fields must be an array`);
    else
      payload.custom_fields.forEach((f, i) => {
        customField(f, `${at}/entity_payload/custom_fields/${i}`, problems);
      });
  }
  if (
    payload.display_order !== undefined &&
    (!Array.isArray(payload.display_order) || payload.display_order.some((k) => typeof k !== 'string'))
  )
    problems.push(`${at}/entity_payload/display_order must be an array of strings`);
  if (payload.actions !== undefined) {
    if (!isObject(payload.actions)) problems.push(`${at}/entity_payload/actions must be an object`);
    else {
      actionButtons(
        payload.actions.primary_actions,
        `${at}/entity_payload/actions/primary_actions`,
        problems,
      );
      actionButtons(
        payload.actions.overflow_actions,
        `${at}/entity_payload/actions/overflow_actions`,
        problems,
      );
      const primary = payload.actions.primary_actions;
      if (Array.isArray(primary) && primary.length > 2)
        problems.push(`${at}/entity_payload/actions/primary_actions holds at most 2 buttons`);
    }
  }
  return problems;
}

/** `metadata.entities` of a message or an unfurl; undefined when there is none. */
export function entitiesProblems(metadata: Json, opts: { unfurl: boolean }): string[] | undefined {
  const entities = metadata.entities;
  if (entities === undefined) return undefined;
  if (!Array.isArray(entities) || entities.length === 0)
    return ['/metadata/entities must be a non-empty array'];
  return entities.flatMap((e, i) => entityProblems(e, `/metadata/entities/${i}`, opts));
}

const unfurl: BotMethod = ({ state, body }) => {
  const channel = str(body, 'channel');
  const ts = str(body, 'ts');
  const unfurlId = str(body, 'unfurl_id');
  const source = str(body, 'source');
  const byMessage = channel !== undefined && ts !== undefined;
  const byId = unfurlId !== undefined && (source === 'composer' || source === 'conversations_history');
  if (byMessage === byId)
    return failWithMessages('invalid_arguments', ['channel and ts, or unfurl_id and source, must be given']);
  if (byMessage && !state.channels.has(channel)) return fail('channel_not_found');
  const metadata = objectArg(body, 'metadata');
  const unfurls = objectArg(body, 'unfurls');
  if (metadata === 'invalid' || unfurls === 'invalid') return fail('invalid_metadata');
  if (metadata === undefined && unfurls === undefined)
    return failWithMessages('invalid_arguments', ['unfurls or metadata is required']);
  const problems =
    metadata === undefined
      ? []
      : (entitiesProblems(metadata, { unfurl: true }) ?? ['/metadata/entities is required']);
  if (problems.length > 0) return failWithMessages('invalid_metadata', problems);
  return { ok: true };
};

const presentDetails: BotMethod = ({ state, body }) => {
  const triggerId = str(body, 'trigger_id');
  if (triggerId === undefined) return fail('invalid_trigger_id');
  const refused = state.spendTrigger(triggerId);
  if (refused !== undefined) return fail(refused);
  const metadata = objectArg(body, 'metadata');
  const error = objectArg(body, 'error');
  if (metadata === 'invalid' || error === 'invalid') return fail('invalid_metadata');
  if ((metadata === undefined) === (error === undefined))
    return failWithMessages('invalid_arguments', ['metadata or error, one of them, is required']);
  if (error !== undefined) {
    if (!isString(error.status) || !ERROR_STATUSES.has(error.status))
      return failWithMessages('invalid_arguments', [
        `/error/status must be one of ${[...ERROR_STATUSES].join(', ')}`,
      ]);
    return { ok: true };
  }
  const problems = entityProblems(metadata, '/metadata', { unfurl: false });
  if (problems.length > 0) return failWithMessages('invalid_metadata', problems);
  return { ok: true };
};

export const entityMethods: Record<string, BotMethod> = {
  'chat.unfurl': unfurl,
  'entity.presentDetails': presentDetails,
};
