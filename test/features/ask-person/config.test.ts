/** The three ask-person variables: their defaults, durations with units, and a clear line for a bad value. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/app/config.js';

const single = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_SIGNING_SECRET: 'secret',
  VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.lines;
    throw err;
  }
  return [];
}

describe('VIGIL_ASK_PERSON_*', () => {
  it('defaults to a 30-day cooldown, 50 DMs an hour and escalation after 24 hours', () => {
    expect(loadConfig(single).askPerson).toEqual({
      cooldownMs: 30 * 86_400_000,
      perHour: 50,
      escalateMs: 24 * 3_600_000,
    });
  });

  it('reads durations with units, or milliseconds', () => {
    const c = loadConfig({
      ...single,
      VIGIL_ASK_PERSON_COOLDOWN: '7d',
      VIGIL_ASK_PERSON_PER_HOUR: '5',
      VIGIL_ASK_PERSON_ESCALATE: '90m',
    });
    expect(c.askPerson).toEqual({ cooldownMs: 7 * 86_400_000, perHour: 5, escalateMs: 90 * 60_000 });
    expect(loadConfig({ ...single, VIGIL_ASK_PERSON_ESCALATE: '3600000' }).askPerson.escalateMs).toBe(
      3_600_000,
    );
  });

  it('refuses what is not a duration or a count, one line each', () => {
    const lines = problems({
      ...single,
      VIGIL_ASK_PERSON_COOLDOWN: 'a month',
      VIGIL_ASK_PERSON_PER_HOUR: '0',
      VIGIL_ASK_PERSON_ESCALATE: '10s',
    });
    expect(lines.join('\n')).toMatch(/VIGIL_ASK_PERSON_COOLDOWN.*1m to 366d/);
    expect(lines.join('\n')).toMatch(/VIGIL_ASK_PERSON_PER_HOUR.*DMs an hour/);
    expect(lines.join('\n')).toMatch(/VIGIL_ASK_PERSON_ESCALATE.*1m to 366d/);
  });
});
