/** The events command back to text people can paste, and the fields of the secret search form. */
import { describe, expect, it } from 'vitest';
import { eventsCommandText } from '../../../src/features/events/command-text.js';
import { submittedQuery } from '../../../src/features/events/views.js';
import type { Command } from '../../../src/slack/grammar/index.js';
import { parseCommand } from '../../support/grammar.js';

function eventsCommand(text: string): Extract<Command, { kind: 'events' }> {
  const parsed = parseCommand(text);
  if (!parsed.ok || parsed.command.kind !== 'events') throw new Error(`not an events command: ${text}`);
  return parsed.command;
}

describe('command text', () => {
  it.each([
    '/vigil events 3001',
    '/vigil events 3001 domain:acme.example severity:high since:7d',
    '/vigil events 3001 keyword:"acme corp" severity:high,critical type:leak,paste status:open,ignored',
    '/vigil events 3001 name:"Ada Lovelace" strict order:asc size:5',
    '/vigil events 3001 github:acme/website until:2026-11-01',
    '/vigil events 3001 query:"acme AND leak" tag:vip,finance since:24h',
  ])('round-trips %s', (text) => {
    const cmd = eventsCommand(text.replace('/vigil ', ''));
    const again = eventsCommandText(cmd);
    expect(again).toBe(text);
    expect(eventsCommand(again.replace('/vigil ', ''))).toEqual(cmd);
  });
});

describe('secret modal fields', () => {
  const v = (value: string) => ({ value: { type: 'plain_text_input', value } });
  it('needs every field and builds the query from them', () => {
    expect(submittedQuery('secret', { secret: v('  ') })).toEqual({
      errors: { secret: 'Enter the secret to search for.' },
    });
    expect(submittedQuery('secret', { secret: v(' AKIA1 ') })).toEqual({
      query: { type: 'secret', secret: 'AKIA1' },
    });
    expect(submittedQuery('credentials', { username: v('ada') })).toEqual({
      errors: { password: 'Enter the password.' },
    });
    expect(submittedQuery('credentials', { username: v('ada'), password: v('hunter2') })).toEqual({
      query: { type: 'credentials', username: 'ada', password: 'hunter2' },
    });
  });
});
