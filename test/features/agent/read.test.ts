/** The forgiving reading of plain requests: each becomes `/vigil` text the grammar parses, or nothing. */
import { describe, expect, it } from 'vitest';
import { readRequest } from '../../support/grammar.js';

const textOf = (message: string) => {
  const r = readRequest(message);
  return r.kind === 'command' ? r.text : r.kind;
};

describe('readRequest', () => {
  it.each([
    ['leaks for <http://acme.example|acme.example> this week', 'creds domain acme.example since:7d'],
    ['Leaked credentials for <mailto:jo@acme.example|jo@acme.example>?', 'creds email jo@acme.example'],
    ['passwords for jsmith in the last 30 days', 'creds keyword jsmith since:30d'],
    ['What’s new on Project Nightjar?', 'events "Project Nightjar" since:7d'],
    ['anything new on 3001 today', 'events 3001 since:24h'],
    ['critical events this week', 'events all severity:critical since:7d'],
    ['my identifiers', 'identifiers'],
    ["what's snoozed", 'snoozes'],
    ['<@U0BOT0001> /vigil events 3001 severity:high', 'events 3001 severity:high'],
  ])('reads “%s” as `/vigil %s`', (message, grammar) => {
    expect(textOf(message)).toBe(grammar);
  });

  it('reads "that one" only as a request about the conversation, never as a search', () => {
    expect(readRequest('ignore that one')).toEqual({ kind: 'act-on-that', action: 'ignore' });
    expect(readRequest('Please remediate this event')).toEqual({ kind: 'act-on-that', action: 'remediate' });
    expect(readRequest('what is this?')).toEqual({ kind: 'explain-that' });
  });

  it('does not guess: anything else is not understood, and grammar that does not parse says why', () => {
    expect(textOf('ignore everything from last year')).toBe('not-understood');
    expect(textOf('tell me a joke')).toBe('not-understood');
    expect(readRequest('vigil creds acme.example')).toMatchObject({ kind: 'usage' });
    expect(readRequest('creds telephone 555')).toMatchObject({ kind: 'usage' });
    expect(textOf('help')).toBe('help');
  });
});
