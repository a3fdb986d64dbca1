/** Prompts from the workspace's identifiers, and upstream names kept inert in the stream's Markdown. */
import { describe, expect, it } from 'vitest';
import { capabilitiesMarkdown, promptsFor } from '../../../src/features/agent/prompts.js';
import { readRequest } from '../../support/grammar.js';

describe('promptsFor', () => {
  it('names a domain and another identifier, skips disabled ones, and every prompt reads as a command', () => {
    const prompts = promptsFor([
      { name: 'old.example', type: 'domain', disabled: true },
      { name: 'acme.example', type: 'domain', disabled: false },
      { name: 'Project Nightjar', type: 'keyword', disabled: false },
    ]);
    expect(prompts.map((p) => p.message)).toEqual([
      'leaks for acme.example this week',
      "what's new on Project Nightjar",
      'critical events this week',
      'help',
    ]);
    for (const p of prompts) expect(['command', 'help']).toContain(readRequest(p.message).kind);
  });

  it('keeps an identifier’s name inert: inside a code span, with no backtick to close it early', () => {
    const [, named] = promptsFor([
      { name: 'acme.example', type: 'domain', disabled: false },
      { name: 'Evil` [click](https://evil.example) <@U1> **bold**', type: 'keyword', disabled: false },
    ]);
    const md = capabilitiesMarkdown(named ? [named] : [], 'Hello.');
    const line = md.split('\n').find((l) => l.startsWith('- ')) ?? '';
    expect(line.startsWith('- `')).toBe(true);
    expect(line.endsWith('`')).toBe(true);
    expect(line.slice(3, -1)).not.toContain('`');
  });
});
