/** Matching identifier names locally: ranking, resolution of a typed name, close names for typos. */
import { describe, expect, it } from 'vitest';
import { type KnownIdentifier, matchIdentifiers, resolveName } from '../../src/domain/identifier-match.js';

const id = (n: number, name: string, kinds = ['domain']): KnownIdentifier => ({
  id: n,
  name,
  type: kinds[0] ?? 'domain',
  kinds,
  disabled: false,
});
const LIST = [
  id(1, 'acme.example'),
  id(2, 'ceo@acme.example', ['identity', 'email']),
  id(3, 'Project Nightjar', ['keyword']),
  id(4, 'acme-labs.example'),
  id(5, 'shop.acme.example'),
];

/** The close names offered for a name that matches none (resolveName's suggestions), at most `max`. */
function closestNames(list: readonly KnownIdentifier[], typed: string, max: number): KnownIdentifier[] {
  const resolved = resolveName(list, typed);
  if (resolved.kind !== 'none') throw new Error(`"${typed}" matched (${resolved.kind})`);
  return resolved.suggestions.slice(0, max);
}

describe('matchIdentifiers', () => {
  it('keeps names holding every word (any case), best first: whole name, prefix, word start, anywhere', () => {
    expect(matchIdentifiers(LIST, { words: ['ACME.example'] }).map((i) => i.id)).toEqual([1, 2, 5]);
    expect(matchIdentifiers(LIST, { words: ['acme'] }).map((i) => i.id)).toEqual([1, 4, 2, 5]);
    expect(matchIdentifiers(LIST, { words: ['night', 'project'] }).map((i) => i.id)).toEqual([3]);
    expect(matchIdentifiers(LIST, { words: ['nothing'] })).toEqual([]);
  });

  it('filters on kinds, identity attributes included', () => {
    expect(matchIdentifiers(LIST, { kinds: ['email'] }).map((i) => i.id)).toEqual([2]);
    expect(matchIdentifiers(LIST, { words: ['acme'], kinds: ['keyword'] })).toEqual([]);
  });
});

describe('resolveName', () => {
  it('one exact name, even when others contain it', () => {
    expect(resolveName(LIST, ' Acme.Example ')).toMatchObject({
      kind: 'one',
      identifier: { id: 1 },
      exact: true,
    });
  });
  it('one partial match is used; several are offered', () => {
    expect(resolveName(LIST, 'nightjar')).toMatchObject({ kind: 'one', identifier: { id: 3 }, exact: false });
    const several = resolveName(LIST, 'acme');
    expect(several.kind).toBe('several');
  });
  it('two identifiers of the same name are both offered', () => {
    const dup = [...LIST, id(9, 'acme.example', ['keyword'])];
    expect(resolveName(dup, 'acme.example')).toMatchObject({ kind: 'several', exact: true });
  });
  it('none: the close names of a typo', () => {
    const none = resolveName(LIST, 'acme.exmaple');
    expect(none.kind).toBe('none');
    expect(none.kind === 'none' ? none.suggestions.map((i) => i.id)[0] : undefined).toBe(1);
    expect(closestNames(LIST, 'nigthjar', 3).map((i) => i.id)).toEqual([3]);
    expect(closestNames(LIST, 'zzzzzzzzzz', 3)).toEqual([]);
  });
});
