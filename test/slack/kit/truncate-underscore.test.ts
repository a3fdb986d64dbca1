import { describe, expect, it } from 'vitest';
import { truncate } from '../../../src/slack/kit/text.js';

describe('truncate', () => {
  it('never leaves an in-word underscore at the cut, where Slack would read italics', () => {
    // Found by the event-group property test: `EVIL[.]COM_user` cut after the underscore.
    expect(truncate('EVIL[.]COM_user@example', 12)).toBe('EVIL[.]COMˍ…');
    expect(truncate('snake_case_words', 12)).toBe('snake_caseˍ…');
    expect(truncate('snake_case', 20)).toBe('snake_case');
  });
});
