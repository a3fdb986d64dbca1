/** The grammar of `events …` (search-grammar.ts parses it) and `explain <event-uid>`. */
import type { Order } from '../../api/index.js';
import { onlyArgument } from '../../slack/grammar/args.js';
import { echo } from '../../slack/grammar/errors.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';
import * as v from '../../slack/grammar/values.js';
import { EVENTS_HELP } from './grammar-help.js';
import { parseEvents } from './search-grammar.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    events: {
      kind: 'events';
      identifierId: number;
      query?: TextEventQuery;
      filters: EventFilterSpec;
      order?: Order;
      size?: number;
      /** `sort:severity`: each page's most severe events first. */
      sort?: 'severity';
    };
    /** `events <name>`: resolved to an identifier by name (a picker when several match). */
    'events-name': { kind: 'events-name'; name: string } & EventsSearchSpec;
    /** `events all`: the tenant-wide feed. */
    'events-all': { kind: 'events-all' } & EventsSearchSpec;
    'events-secret-modal': {
      kind: 'events-secret-modal';
      identifierId: number;
      queryType: 'secret' | 'credentials';
    };
    /** The private form of the identifier of that name (it opens at once when the name is already known). */
    'events-secret-name': { kind: 'events-secret-name'; name: string; queryType: 'secret' | 'credentials' };
    explain: { kind: 'explain'; eventUid: string };
  }
}

function parseExplain(args: readonly Token[]): CommandOf<'explain'> {
  const uid = onlyArgument(args, 'explain', 'an event uid, like `leak/breach_source/8f3a2c`').value.trim();
  return { kind: 'explain', eventUid: v.eventUid(uid, `\`${echo(uid)}\``) };
}

const EXPLAIN_HELP: HelpEntry = {
  usage: `${COMMAND} explain <event-uid>`,
  summary: 'AI explanation of an event',
  description: 'Shows the AI assistance text for one event. The uid looks like `<index>/<source>/<id>`.',
  examples: [ex(`explain ${EXAMPLE.event}`, 'explain one event')],
};

export const eventsSubcommands = [
  defineSubcommand({
    name: 'events',
    inMessages: ['events', 'events-name', 'events-all'],
    help: EVENTS_HELP,
    access: {
      events: 'use',
      'events-all': 'use',
      'events-name': 'use',
      'events-secret-modal': 'use',
      'events-secret-name': 'use',
    },
    parse: parseEvents,
  }),
];

export const explainSubcommands = [
  defineSubcommand({
    name: 'explain',
    inMessages: ['explain'],
    help: EXPLAIN_HELP,
    access: { explain: 'use' },
    parse: parseExplain,
  }),
];
