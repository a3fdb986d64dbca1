/** What an action means for an event: buttons to actions, Undo, the event afterwards. */
import { describe, expect, it } from 'vitest';
import { applyAction, isApplicable, reverseOf } from '../../../src/domain/events/model.js';
import { intendedAction } from '../../../src/features/events/intended.js';
import { event } from '../../support/services/event.js';

describe('state transitions', () => {
  it('maps buttons to actions and Undo to the reverse of what the message shows', () => {
    const shown = { event: event(), generation: 1, acted: { action: 'ignore' as const, by: 'U1', at: 1 } };
    expect(intendedAction('event_ignore', shown)).toBe('ignore');
    expect(intendedAction('event_remediate', shown)).toBe('remediate');
    expect(intendedAction('event_undo', shown)).toBe('unignore');
    expect(intendedAction('event_undo', { event: event(), generation: 0 })).toBeUndefined();
    expect(intendedAction('event_explain', shown)).toBeUndefined();
    expect(reverseOf('remediate')).toBe('unremediate');
    expect(reverseOf('unignore')).toBe('ignore');
  });

  it('applies actions to the event shown, keeping the first ignore date', () => {
    const ignored = applyAction(event(), 'ignore', '2026-11-21T09:00:00.000Z');
    expect(ignored.tenant_metadata?.ignored_at).toBe('2026-11-21T09:00:00.000Z');
    expect(applyAction(ignored, 'ignore', '2027-01-01T00:00:00.000Z').tenant_metadata?.ignored_at).toBe(
      '2026-11-21T09:00:00.000Z',
    );
    expect(applyAction(ignored, 'unignore', 'x').tenant_metadata?.ignored_at).toBeNull();
    expect(isApplicable(event(), 'ignore')).toBe(true);
    expect(isApplicable(ignored, 'ignore')).toBe(false);
    expect(isApplicable(ignored, 'unignore')).toBe(true);
    expect(isApplicable(event(), 'unremediate')).toBe(false);
  });
});
