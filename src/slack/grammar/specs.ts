import { IDENTIFIER_KINDS } from '../../api/index.js';
import { once, partsOf, refuseSecretKey, unknownKey } from './args.js';
import type { Command } from './command.js';
import { parseCreds } from './creds.js';
import { ENTRIES } from './entries.js';
import { fail } from './errors.js';
import { parseEvents } from './events.js';
import type { SubcommandSpec } from './spec.js';
import type { Token } from './tokenize.js';
import * as v from './values.js';
import { parseWatch, WATCH_VERBS, type WatchVerb } from './watch.js';

/** Short names people type for identifier kinds. */
const KIND_ALIASES: Readonly<Record<string, string>> = {
  github: 'github_repository',
  query: 'search_query',
  person: 'name',
  azure: 'azure_tenant',
};

/** `identifiers [words] [type:domain,email]`: words match names (every word, any case). */
function parseIdentifiers(tokens: readonly Token[]): Command {
  const [first, ...rest] = tokens;
  const verb = first && first.key === undefined && !first.quoted ? first.value.toLowerCase() : '';
  if ((WATCH_VERBS as readonly string[]).includes(verb)) return parseWatch(verb as WatchVerb, rest);
  const words: string[] = [];
  let kinds: Extract<Command, { kind: 'identifiers' }>['kinds'];
  const example = '/vigil identifiers acme type:domain,email';
  for (const token of tokens) {
    if (token.key === undefined) {
      const word = token.value.replace(/\s+/g, ' ').trim();
      if (word !== '') words.push(word);
      continue;
    }
    refuseSecretKey(token);
    if (token.key !== 'type') unknownKey(token, 'identifiers', ['type']);
    once(kinds, token, example);
    kinds = v.listOfEnum(
      partsOf(token, example).map((p) => KIND_ALIASES[p.trim().toLowerCase()] ?? p.trim().toLowerCase()),
      IDENTIFIER_KINDS,
      'identifier type',
      'type',
      example,
    );
  }
  if (words.join(' ').length > 200)
    fail('The words to look for are longer than 200 characters.', { example });
  const command: Command = { kind: 'identifiers', words };
  if (kinds !== undefined) command.kinds = kinds;
  return command;
}

export const eventsSpec: SubcommandSpec = {
  name: 'events',
  help: ENTRIES.events,
  access: {
    events: 'use',
    'events-all': 'use',
    'events-name': 'use',
    'events-secret-modal': 'use',
    'events-secret-name': 'use',
  },
  parse: parseEvents,
};

export const identifiersSpec: SubcommandSpec = {
  name: 'identifiers',
  help: ENTRIES.identifiers,
  access: {
    identifiers: 'use',
    'identifiers-add': 'watch',
    'identifiers-remove': 'watch',
    'identifiers-disable': 'watch',
    'identifiers-enable': 'watch',
  },
  parse: parseIdentifiers,
};

export const credsSpec: SubcommandSpec = {
  name: 'creds',
  help: ENTRIES.creds,
  access: { creds: 'creds', 'creds-password-modal': 'creds' },
  parse: parseCreds,
  valueNamedByWord: true,
};
