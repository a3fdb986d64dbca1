import { describe, expect, it } from 'vitest';
import { type Command, type Subcommand, toMrkdwn } from '../../../src/slack/grammar/index.js';
import { helpText, parseCommand, SUBCOMMANDS } from '../../support/grammar.js';

function parsed(example: string): Command {
  expect(example.startsWith('/vigil ')).toBe(true);
  const result = parseCommand(example.slice('/vigil '.length));
  if (!result.ok) throw new Error(`${example}: ${result.error.message}`);
  return result.command;
}

/** The subcommand a command belongs to, to check each help page's examples are its own. */
function topicOf(command: Command): Subcommand {
  const kind = command.kind;
  if (kind.startsWith('events')) return 'events';
  if (kind.startsWith('creds')) return 'creds';
  if (kind.startsWith('digest')) return 'digest';
  if (kind.startsWith('alerts')) return 'alerts';
  if (kind.startsWith('settings')) return 'settings';
  if (kind.startsWith('audit')) return 'audit';
  if (kind.startsWith('identifiers')) return 'identifiers';
  if (kind.startsWith('idp')) return 'idp';
  return kind as Subcommand;
}

describe('helpText', () => {
  it('lists every subcommand at the top level, with examples that work', () => {
    const top = helpText();
    expect(top.title).toBe('Vigil');
    expect(top.usage).toBe('/vigil <subcommand> [arguments]');
    expect(top.subcommands?.map((s) => s.name)).toEqual([...SUBCOMMANDS]);
    for (const s of top.subcommands ?? []) {
      expect(s.summary.length).toBeGreaterThan(0);
      expect(s.usage.startsWith(`/vigil ${s.name}`)).toBe(true);
    }
    expect(top.subcommands?.filter((s) => s.adminOnly).map((s) => s.name)).toEqual([
      'connect',
      'disconnect',
      'tenant',
      'idp',
      'audit',
      'settings',
    ]);
    expect(top.examples.length).toBeGreaterThan(0);
    for (const example of top.examples) parsed(example.command);
  });

  it.each(SUBCOMMANDS)('%s: usage, description and examples of its own that parse', (topic) => {
    const help = helpText(topic);
    expect(help.topic).toBe(topic);
    expect(help.title).toBe(`/vigil ${topic}`);
    expect(help.usage.startsWith(`/vigil ${topic}`)).toBe(true);
    expect(help.description.length).toBeGreaterThan(0);
    expect(help.examples.length).toBeGreaterThan(0);
    for (const example of help.examples) {
      expect(example.description.length).toBeGreaterThan(0);
      expect(topicOf(parsed(example.command))).toBe(topic === 'help' ? 'help' : topic);
    }
  });

  it('has an example for every events query and filter key', () => {
    const commands = helpText('events').examples.map((e) => e.command);
    const keys = [
      'severity:high',
      'severity:high,critical',
      'type:',
      'status:',
      'tag:',
      'since:',
      'until:',
      'order:',
      'size:',
      'domain:',
      'email:',
      'keyword:',
      'query:',
      'username:',
      'github:',
      'brand:',
      'name:',
      'strict',
      'bin:',
      'ip:',
      'azure_tenant:',
      ' secret',
    ];
    for (const key of keys)
      expect(
        commands.some((c) => c.includes(key)),
        key,
      ).toBe(true);
  });

  it('has an example for every creds type and filter', () => {
    const commands = helpText('creds').examples.map((e) => e.command);
    for (const part of [
      'domain ',
      'email ',
      'keyword ',
      'authdomain ',
      'password',
      'since:',
      'until:',
      'limit:',
      'include:',
      'order:',
    ]) {
      expect(
        commands.some((c) => c.includes(part)),
        part,
      ).toBe(true);
    }
  });

  it('documents the digest grammar and its defaults', () => {
    const digest = helpText('digest');
    const text = digest.sections.flatMap((s) => s.lines).join('\n');
    for (const part of [
      '#channel',
      'identifiers:1,2|all',
      'severity:',
      'type:',
      'at:09:00',
      'tz:',
      'weekdays',
      'always',
      'digest list',
      'digest remove',
      'digest preview',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toContain('09:00');
  });

  it('is what `help <subcommand>` asks for', () => {
    for (const topic of SUBCOMMANDS) {
      const result = parseCommand(`help ${topic}`);
      expect(result).toEqual({ ok: true, command: { kind: 'help', topic } });
      expect(helpText(topic).usage).toMatch(/^\/vigil /);
    }
  });

  it('is plain text: after toMrkdwn no Slack markup but code spans remains', () => {
    const all = [helpText(), ...SUBCOMMANDS.map((t) => helpText(t))];
    for (const h of all) {
      const texts = [h.title, h.usage, h.description, ...h.sections.flatMap((s) => [s.title, ...s.lines])];
      texts.push(...h.examples.flatMap((e) => [e.command, e.description]));
      for (const text of texts) {
        const safe = toMrkdwn(text);
        expect(safe).not.toMatch(/[<>]/);
        expect(safe).not.toMatch(/&(?!amp;|lt;|gt;)/);
        expect((text.match(/`/g) ?? []).length % 2, text).toBe(0);
      }
    }
  });
});
