/** `events <identifier-id> [query] [filters]` and its secret-modal form. */
import type { Order } from '../../api/index.js';
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES, type Severity } from '../../api/index.js';
import {
  NEVER_PASTE,
  once,
  partsOf,
  refuseSecretKey,
  singleValueOf,
  unexpectedWord,
  unknownKey,
} from '../../slack/grammar/args.js';
import type { EventFilterSpec, EventsSearchSpec, TextEventQuery } from '../../slack/grammar/command.js';
import { echo, fail } from '../../slack/grammar/errors.js';
import { EVENT_FILTER_KEYS, EVENT_QUERY_KEYS, type EventQueryKey } from '../../slack/grammar/event-keys.js';
import { ACCEPTED_EVENT_TYPES, isAcceptedEventType } from '../../slack/grammar/event-types.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import type { CommandOf } from '../../slack/grammar/index.js';
import { suggest } from '../../slack/grammar/suggest.js';
import { parseTimeBound, refuseReversedBounds } from '../../slack/grammar/time.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';
import { EVENTS_KEY_EXAMPLES } from './grammar-help.js';

export type EventsKind =
  | 'events'
  | 'events-name'
  | 'events-all'
  | 'events-secret-modal'
  | 'events-secret-name';

const SORTS = ['severity'] as const;

const ALL_KEYS: readonly string[] = [...EVENT_FILTER_KEYS, ...EVENT_QUERY_KEYS];
const MODAL_WORDS = ['secret', 'credentials'] as const;
const EXAMPLE_ID = `/vigil events ${EXAMPLE.identifier}`;

const exampleFor = (key: string): string =>
  (EVENTS_KEY_EXAMPLES[key] ?? EVENTS_KEY_EXAMPLES.severity)?.command ?? EXAMPLE_ID;

function queryOf(key: EventQueryKey, token: Token): TextEventQuery {
  const example = exampleFor(key);
  const value = singleValueOf(token, example).trim();
  switch (key) {
    case 'domain':
      return { type: 'domain', fqdn: v.fqdn(value, '`domain:`', example) };
    case 'email':
      return { type: 'email', email: v.email(value, '`email:`', example) };
    case 'keyword':
      return { type: 'keyword', keyword: v.text(value, '`keyword:`', 200, example) };
    case 'query':
      return { type: 'query_string', query_string: v.text(value, '`query:`', 1000, example) };
    case 'username':
      return { type: 'username', username: v.text(value, '`username:`', 200, example) };
    case 'brand':
      return { type: 'brand', name: v.text(value, '`brand:`', 200, example) };
    case 'github': {
      const m =
        /^(?:https?:\/\/)?(?:www\.)?(?:github\.com\/)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})\/?$/i.exec(
          value,
        );
      if (!m?.[1] || !m[2] || m[2] === '.' || m[2] === '..') {
        fail(`\`github:\` must be \`<owner>/<repo>\`, like \`acme/website\`, not \`${echo(value)}\`.`, {
          example,
        });
      }
      return { type: 'github_repository', repo_owner: m[1], repo_name: m[2].replace(/\.git$/i, '') };
    }
    case 'name':
      return nameQuery(value, example);
    case 'bin':
      if (!/^\d{6,8}$/.test(value))
        fail(`\`bin:\` must be 6 to 8 digits, not \`${echo(value)}\`.`, { example });
      return { type: 'bin', bin: value };
    case 'ip':
      return { type: 'ip', ip: v.ip(value, '`ip:`', example) };
    case 'azure_tenant':
      return { type: 'azure_tenant', tenant_id: v.uuid(value, '`azure_tenant:`', example) };
  }
}

/**
 * `First Last` splits at the first space, so particles stay in the last name (`Ludwig van Beethoven`);
 * `Last, First Middle` says it explicitly for multi-word first names.
 */
function nameQuery(value: string, example: string): TextEventQuery {
  const collapsed = value.replace(/\s+/g, ' ').trim();
  let first = '';
  let last = '';
  const comma = collapsed.indexOf(',');
  if (comma !== -1) {
    last = collapsed.slice(0, comma).trim();
    first = collapsed.slice(comma + 1).trim();
  } else {
    const space = collapsed.indexOf(' ');
    if (space !== -1) {
      first = collapsed.slice(0, space);
      last = collapsed.slice(space + 1);
    }
  }
  if (!first || !last) {
    fail(`\`name:\` needs a first and a last name, like \`name:"Ada Lovelace"\`, not \`${echo(value)}\`.`, {
      hint: 'For several first names write `name:"Lovelace, Augusta Ada"`.',
      example,
    });
  }
  if (collapsed.length > 200) fail('`name:` is longer than 200 characters.', { example });
  return { type: 'name', first_name: first, last_name: last, is_strict: false };
}

/**
 * Categories and production names alike; an unknown one is refused with a suggestion from either list, but
 * the list of valid values names only the categories (production's are too many to read).
 */
function typesOf(token: Token, example: string): string[] {
  const types: string[] = [];
  for (const part of partsOf(token, example)) {
    const value = part.trim().toLowerCase();
    if (value === '') fail('`type:` has an empty value between commas.', { example });
    if (!isAcceptedEventType(value)) {
      const guess = suggest(value, [...EVENT_TYPES, ...ACCEPTED_EVENT_TYPES]);
      fail(`\`${echo(part.trim())}\` is not a valid event type.`, {
        hint: `${guess ? `Did you mean \`${guess}\`? ` : ''}Categories: ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; production's names such as \`stealer_log\` or \`forum_post\` work too.`,
        example,
      });
    }
    if (types.includes(value)) fail(`\`${value}\` is listed twice in \`type:\`.`, { example });
    types.push(value);
  }
  return types;
}

function tagsOf(token: Token): string[] {
  const example = exampleFor('tag');
  const tags: string[] = [];
  for (const tag of partsOf(token, example)) {
    if (tag.length > 100) fail('A tag is longer than 100 characters.', { example });
    if (tags.includes(tag)) fail(`\`${echo(tag)}\` is listed twice in \`tag:\`.`, { example });
    tags.push(tag);
  }
  return tags;
}

function merge<T>(existing: T[] | undefined, added: T[], key: string, example: string): T[] {
  const all = [...(existing ?? [])];
  for (const item of added) {
    if (all.includes(item)) fail(`\`${String(item)}\` is listed twice in \`${key}:\`.`, { example });
    all.push(item);
  }
  return all;
}

const RESERVED_WORDS: readonly string[] = ['strict', ...MODAL_WORDS];
const NAME_EXAMPLE = '/vigil events acme.example severity:high';

/**
 * `events <identifier-id> …` (unchanged), `events all …` (the tenant feed) or `events <name> …`: a name is
 * the first word, or a quoted phrase, or every bare word before the first `key:value` (`events Project
 * Nightjar since:7d`); the rest is the same query and filters.
 */
export function parseEvents(tokens: readonly Token[]): CommandOf<EventsKind> {
  const [idToken, ...rest] = tokens;
  if (!idToken) {
    fail('`events` needs an identifier: its id, its name, or `all`.', {
      hint: '`/vigil identifiers` lists names and ids, e.g. `/vigil events acme.example` or `/vigil events all`.',
      example: NAME_EXAMPLE,
    });
  }
  if (idToken.key !== undefined) {
    fail(
      `The first argument of \`events\` is an identifier id, an identifier name or \`all\`, not \`${echo(idToken.text)}\`.`,
      { example: NAME_EXAMPLE },
    );
  }
  const bare = idToken.quoted ? '' : idToken.value.trim();
  if (/^\d+$/.test(bare) || /^[+-]\d+$/.test(bare)) return parseIdentifierEvents(idToken, rest);
  if (bare.toLowerCase() === 'all') {
    refuseModalWord(rest[0], 'all');
    return { kind: 'events-all', ...parseSearchSpec(rest, 'all') };
  }
  const words = [idToken.value.trim()];
  let i = 0;
  if (!idToken.quoted) {
    for (; i < rest.length; i++) {
      const t = rest[i];
      if (!t || t.key !== undefined || t.quoted || RESERVED_WORDS.includes(t.value.toLowerCase())) break;
      words.push(t.value.trim());
    }
  }
  const name = words.join(' ').replace(/\s+/g, ' ').trim();
  if (name === '') fail('The identifier name is empty.', { example: NAME_EXAMPLE });
  if (name.length > 200)
    fail('The identifier name is longer than 200 characters.', { example: NAME_EXAMPLE });
  const after = rest.slice(i);
  const modal = modalWordOf(after[0]);
  if (modal !== undefined) {
    if (after[1]) {
      fail(`\`events ${echo(name)} ${modal}\` takes nothing else; the private form asks for the rest.`, {
        hint: NEVER_PASTE,
        example: exampleFor('secret'),
      });
    }
    return { kind: 'events-secret-name', name, queryType: modal };
  }
  return { kind: 'events-name', name, ...parseSearchSpec(after, name) };
}

/** `secret` or `credentials` as a bare word: the private form's search, not a text query. */
function modalWordOf(token: Token | undefined): (typeof MODAL_WORDS)[number] | undefined {
  const word = token && !token.key && !token.quoted ? token.value.toLowerCase() : undefined;
  return MODAL_WORDS.find((m) => m === word);
}

/** A secret search is of one identifier: not of every identifier at once. */
function refuseModalWord(token: Token | undefined, target: string): void {
  const word = modalWordOf(token);
  if (word === undefined) return;
  fail(`\`${word}\` searches take one identifier, its id or its name, not \`${echo(target)}\`.`, {
    hint: `Find it with \`/vigil identifiers\`, then \`/vigil events <identifier-id> ${word}\`.`,
    example: exampleFor('secret'),
  });
}

function parseIdentifierEvents(
  idToken: Token,
  rest: readonly Token[],
): CommandOf<'events' | 'events-secret-modal'> {
  const identifierId = v.positiveInt(idToken.value, 'The identifier id', EXAMPLE_ID);

  const second = rest[0];
  const modalWord = second && !second.key && !second.quoted ? second.value.toLowerCase() : undefined;
  if (modalWord === 'secret' || modalWord === 'credentials') {
    const extra = rest[1];
    if (extra) {
      fail(
        `\`events ${identifierId} ${modalWord}\` takes nothing else; the private form asks for the rest.`,
        {
          hint: NEVER_PASTE,
          example: exampleFor('secret'),
        },
      );
    }
    return { kind: 'events-secret-modal', identifierId, queryType: modalWord };
  }
  return { kind: 'events', identifierId, ...parseSearchSpec(rest, String(identifierId)) };
}

/** What a search's words have set so far. */
interface SpecDraft {
  query?: TextEventQuery;
  queryKey?: string;
  strict: boolean;
  filters: EventFilterSpec;
  order?: Order;
  size?: number;
  sort?: (typeof SORTS)[number];
}

/** The query and filters after the identifier (its id, name or `all`, as `target`). */
function parseSearchSpec(rest: readonly Token[], target: string): EventsSearchSpec {
  const draft: SpecDraft = { strict: false, filters: {} };
  for (const token of rest) {
    const key = token.key;
    if (key === undefined) {
      bareWord(token, draft, target);
      continue;
    }
    refuseSecretKey(token);
    if ((EVENT_QUERY_KEYS as readonly string[]).includes(key)) {
      if (draft.queryKey !== undefined) {
        fail(`Only one query per search: \`${draft.queryKey}:\` and \`${key}:\` were both given.`, {
          hint: 'Keep one query; filters like `severity:` or `since:` can be combined freely.',
          example: exampleFor(key),
        });
      }
      draft.query = queryOf(key as EventQueryKey, token);
      draft.queryKey = key;
      continue;
    }
    applyFilter(token, key, draft);
  }
  return finishSpec(draft);
}

/** A word without a key: `strict`, or a mistake said with what was meant. */
function bareWord(token: Token, draft: SpecDraft, target: string): void {
  const word = token.quoted ? '' : token.value.toLowerCase();
  if (word === 'strict') {
    if (draft.strict) fail('`strict` is given twice.', { example: exampleFor('name') });
    draft.strict = true;
    return;
  }
  if ((MODAL_WORDS as readonly string[]).includes(word)) {
    fail(
      `\`${word}\` must come right after the identifier id: \`/vigil events ${/^\d+$/.test(target) ? target : '<identifier-id>'} ${word}\`.`,
      {
        hint: 'It opens a private form and takes no filters.',
        example: exampleFor('secret'),
      },
    );
  }
  unexpectedWord(token, 'events', ALL_KEYS, ['strict'], exampleFor);
}

function applyFilter(token: Token, key: string, draft: SpecDraft): void {
  const { filters } = draft;
  const example = exampleFor(key);
  switch (key) {
    case 'severity': {
      once(filters.severity, token, example);
      const parts = partsOf(token, example);
      const levels: Severity[] = v.listOfEnum(parts, SEVERITIES, 'severity', 'severity', example);
      const [only] = levels;
      filters.severity = levels.length === 1 && only ? only : levels;
      return;
    }
    case 'type':
      filters.types = merge(filters.types, typesOf(token, example), 'type', example);
      return;
    case 'sort':
      once(draft.sort, token, example);
      draft.sort = v.oneOf(singleValueOf(token, example).trim(), SORTS, 'sort', example);
      return;
    case 'status':
      filters.statuses = merge(
        filters.statuses,
        v.listOfEnum(partsOf(token, example), EVENT_STATUSES, 'status', 'status', example),
        'status',
        example,
      );
      return;
    case 'tag':
      filters.tags = merge(filters.tags, tagsOf(token), 'tag', example);
      return;
    case 'since':
    case 'until':
      once(filters[key], token, example);
      filters[key] = parseTimeBound(singleValueOf(token, example), key, example);
      return;
    case 'order':
      once(draft.order, token, example);
      draft.order = v.order(singleValueOf(token, example).trim(), example);
      return;
    case 'size':
      once(draft.size, token, example);
      draft.size = v.intInRange(singleValueOf(token, example).trim(), '`size:`', 1, 10, example);
      return;
    default:
      unknownKey(token, 'events', ALL_KEYS);
  }
}

/** Checks what only the whole search shows, then the spec with only what was given. */
function finishSpec(draft: SpecDraft): EventsSearchSpec {
  const { filters } = draft;
  let query = draft.query;
  if (draft.strict) {
    if (query?.type !== 'name') {
      fail('`strict` only applies to a `name:` query.', { example: exampleFor('name') });
    }
    query = { ...query, is_strict: true };
  }
  refuseReversedBounds(filters, exampleFor('until'));
  const spec: EventsSearchSpec = { filters };
  if (query) spec.query = query;
  if (draft.order) spec.order = draft.order;
  if (draft.size !== undefined) spec.size = draft.size;
  if (draft.sort !== undefined) spec.sort = draft.sort;
  return spec;
}
