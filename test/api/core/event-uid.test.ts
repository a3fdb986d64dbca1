import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventUidPath, splitEventUid, ValidationError } from '../../../src/api/index.js';

describe('splitEventUid', () => {
  it('splits on the first two slashes only', () => {
    expect(splitEventUid('source_code_secret/gitlab/acme/100002/files/index.html')).toEqual({
      index: 'source_code_secret',
      source: 'gitlab',
      id: 'acme/100002/files/index.html',
    });
    expect(splitEventUid('leak/breach_forums/42')).toEqual({
      index: 'leak',
      source: 'breach_forums',
      id: '42',
    });
  });

  it.each(['', 'leak', 'leak/src', 'leak/src/', '/src/1', 'leak//1', 'leak/src/../../tokens', 'a/./b'])(
    'refuses %j',
    (uid) => {
      expect(() => splitEventUid(uid)).toThrow(ValidationError);
    },
  );

  it('round-trips any uid made of three valid parts', () => {
    const segment = fc.string({ minLength: 1 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..');
    fc.assert(
      fc.property(
        segment,
        segment,
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        (index, source, idParts) => {
          const id = idParts.join('/');
          expect(splitEventUid(`${index}/${source}/${id}`)).toEqual({ index, source, id });
        },
      ),
    );
  });
});

describe('eventUidPath', () => {
  it('percent-encodes each segment but keeps the slashes of the id', () => {
    expect(eventUidPath('paste/paste bin/a b/c?d#e')).toBe('paste/paste%20bin/a%20b/c%3Fd%23e');
  });

  it('never lets a uid escape its path', () => {
    const segment = fc.string({ minLength: 1 }).filter((s) => !s.includes('/') && s !== '.' && s !== '..');
    fc.assert(
      fc.property(segment, segment, segment, (a, b, c) => {
        const url = new URL(
          `https://api.flare.io/firework/v2/activities/${eventUidPath(`${a}/${b}/${c}`)}/ai_assistance`,
        );
        expect(url.host).toBe('api.flare.io');
        expect(url.pathname.startsWith('/firework/v2/activities/')).toBe(true);
        expect(url.pathname.endsWith('/ai_assistance')).toBe(true);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
    );
  });
});
