/**
 * `npm start` is Vigil for a real Slack app as soon as anything says one is meant (NODE_ENV=production, any
 * SLACK_* or VIGIL_* variable): a missing or empty Slack variable then stops it (exit 2) with a line naming
 * it, never a playground. The playground's side (nothing set, `npm run demo`) is in
 * packages/playground/test/playground/start.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, runNpm } from './support/launcher.js';

beforeAll(buildIfStale, 300_000);

/** `npm start` with `env`: its exit code and what it wrote, once it has stopped by itself. */
async function refused(env: Record<string, string>) {
  // Lines for a person (under LOG_FORMAT=json the same reason is one JSON line: test/main.test.ts).
  const npm = runNpm('start', { LOG_FORMAT: 'text', ...env });
  const code = await npm.exited;
  const output = [...npm.stdout, ...npm.stderr];
  // Never a demo: nothing of the playground started or was offered.
  expect(output.filter((l) => /playground/i.test(l))).toEqual([]);
  expect(npm.stderr[0]).toBe('Vigil cannot start: the configuration has problems:');
  return { code, stderr: npm.stderr };
}

/** The lines that name `variable`. */
const naming = (lines: string[], variable: string) => lines.filter((l) => l.startsWith(`  - ${variable}:`));

describe('npm start for a real Slack app', () => {
  it('with NODE_ENV=production and nothing else set, exits 2 naming the missing Slack variables', async () => {
    const { code, stderr } = await refused({ NODE_ENV: 'production' });
    expect(code).toBe(2);
    expect(naming(stderr, 'SLACK_BOT_TOKEN')).toHaveLength(1);
    expect(naming(stderr, 'SLACK_SIGNING_SECRET')).toEqual([
      '  - SLACK_SIGNING_SECRET: required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });

  it('with one VIGIL_* variable and no Slack variable, exits 2 naming them', async () => {
    const { code, stderr } = await refused({ VIGIL_API_KEY: 'some-key' });
    expect(code).toBe(2);
    expect(naming(stderr, 'SLACK_BOT_TOKEN')).toHaveLength(1);
    expect(naming(stderr, 'SLACK_SIGNING_SECRET')).toHaveLength(1);
  });

  it('names an empty Slack variable as missing', async () => {
    const { code, stderr } = await refused({
      SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
      SLACK_SIGNING_SECRET: ' ',
      VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    expect(code).toBe(2);
    expect(stderr.slice(1)).toEqual([
      '  - SLACK_SIGNING_SECRET: required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });
});
