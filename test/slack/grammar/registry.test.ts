/** The registry: the features' subcommand specs put together, help first, each kind its own subcommand's. */
import { describe, expect, it } from 'vitest';
import { withoutArguments } from '../../../src/slack/grammar/args.js';
import { grammarOf, type SubcommandSpec } from '../../../src/slack/grammar/index.js';
import { ex } from '../../../src/slack/grammar/key-examples.js';

const help = (name: string) => ({
  usage: `/vigil ${name}`,
  summary: `the ${name} summary`,
  description: `What ${name} does.`,
  examples: [ex(name, `run ${name}`)],
});

const status: SubcommandSpec = {
  name: 'status',
  help: help('status'),
  access: { status: 'member' },
  parse: withoutArguments('status'),
  inMessages: ['status'],
};
const tenants: SubcommandSpec = {
  name: 'tenants',
  help: help('tenants'),
  access: { tenants: 'use' },
  parse: withoutArguments('tenants'),
};

describe('grammarOf', () => {
  it('lists help first, then the specs in the order given, and parses, helps and checks access by them', () => {
    const grammar = grammarOf([tenants, status]);
    expect(grammar.subcommands).toEqual(['help', 'tenants', 'status']);
    expect(grammar.helpText().subcommands?.map((s) => s.name)).toEqual(['help', 'tenants', 'status']);
    expect(grammar.parse('status')).toEqual({ ok: true, command: { kind: 'status' } });
    expect(grammar.parse('help tenants')).toEqual({ ok: true, command: { kind: 'help', topic: 'tenants' } });
    expect(grammar.accessOf('tenants')).toBe('use');
    expect(grammar.accessOf('help')).toBe('member');
    expect(grammar.answeredInMessages('status')).toBe(true);
    expect(grammar.answeredInMessages('tenants')).toBe(false);
  });

  it('knows only the subcommands it was given: others are unknown, with the usual suggestion', () => {
    const grammar = grammarOf([status]);
    expect(grammar.parse('tenants')).toMatchObject({
      ok: false,
      error: { message: 'Unknown subcommand `tenants`.' },
    });
    expect(grammar.parse('statsu')).toMatchObject({
      ok: false,
      error: { hint: 'Did you mean `status`? Type `/vigil help` for the list.' },
    });
    expect(() => grammar.accessOf('tenants')).toThrow('no access declared for tenants');
  });

  it('refuses a subcommand declared twice, and a kind that is not its subcommand’s own', () => {
    expect(() => grammarOf([status, status])).toThrow('/vigil status is declared twice');
    const stray: SubcommandSpec = { ...tenants, access: { tenants: 'use', status: 'member' } };
    expect(() => grammarOf([stray])).toThrow('/vigil tenants declares the kind status, which is not its own');
  });
});
