/** `type:` takes production's event type names next to the specification's categories; `sort:severity`. */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../support/grammar.js';

describe('events type: and sort:', () => {
  it('accepts production names and categories together', () => {
    expect(parseCommand('events 12 type:stealer_log,Forum_Post type:leak')).toEqual({
      ok: true,
      command: {
        kind: 'events',
        identifierId: 12,
        filters: { types: ['stealer_log', 'forum_post', 'leak'] },
      },
    });
  });

  it('refuses an unknown name with a suggestion, naming the categories', () => {
    const r = parseCommand('events 12 type:stealer_logs');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain('`stealer_logs` is not a valid event type.');
    expect(r.error.hint).toContain('Did you mean `stealer_log`?');
    expect(r.error.hint).toContain('`forum_content`');
  });

  it('takes sort:severity once', () => {
    expect(parseCommand('events 12 sort:severity')).toEqual({
      ok: true,
      command: { kind: 'events', identifierId: 12, filters: {}, sort: 'severity' },
    });
    const twice = parseCommand('events 12 sort:severity sort:severity');
    expect(twice.ok).toBe(false);
    const other = parseCommand('events 12 sort:date');
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error.message).toContain('`date` is not a valid sort.');
  });
});
