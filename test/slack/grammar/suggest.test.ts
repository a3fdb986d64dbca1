import { describe, expect, it } from 'vitest';
import { editDistance, suggest } from '../../../src/slack/grammar/index.js';
import { SUBCOMMANDS } from '../../support/grammar.js';

describe('editDistance', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['events', 'events', 0],
    ['evnets', 'events', 1],
    ['events', 'event', 1],
    ['stauts', 'status', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['', 'abc', 3],
  ])('%j ↔ %j = %j', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('stops early past the bound', () => {
    expect(editDistance('x'.repeat(4000), 'events', 3)).toBe(4);
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
  });
});

describe('suggest', () => {
  it.each<[string, string | undefined]>([
    ['evnets', 'events'],
    ['EVENT', 'events'],
    ['cred', 'creds'],
    ['credz', 'creds'],
    ['polices', 'policies'],
    ['asignments', 'assignments'],
    ['recomendations', 'recommendations'],
    ['rec', 'recommendations'],
    ['explian', 'explain'],
    ['digets', 'digest'],
    ['setings', 'settings'],
    ['tenat', 'tenant'],
    ['tennants', 'tenants'],
    ['hlep', 'help'],
    ['x', undefined],
    ['', undefined],
    ['banana', undefined],
    ['zzzzzzzzzzzzzzzzzzzz', undefined],
  ])('%j → %j', (input, expected) => {
    expect(suggest(input, SUBCOMMANDS)).toBe(expected);
  });

  it('prefers the closest, then the first listed', () => {
    expect(suggest('tenan', ['tenants', 'tenant'])).toBe('tenant');
    expect(suggest('ab', ['ac', 'ad'])).toBe('ac');
  });
});
