/**
 * The playground as README says to open it, in its own process through the launcher (scripts/start.js):
 * `npm start` with nothing set, and `npm run demo` whatever is set. Each answers its page, then stops
 * cleanly on SIGTERM. (`npm start` refusing for a real app is test/start-launcher.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIfStale, startVigilProcess, type VigilProcess } from './support/process.js';

beforeAll(buildIfStale, 300_000);

/** The page answers, then the process stops cleanly on SIGTERM. */
async function opensThePage(vigil: VigilProcess): Promise<void> {
  try {
    const res = await fetch(vigil.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html');
  } finally {
    await vigil.stop();
  }
  expect(vigil.stdout.some((l) => l.includes('"vigil stopped"'))).toBe(true);
}

describe('the playground', () => {
  it('opens with npm start when nothing is set', async () => {
    await opensThePage(await startVigilProcess({ PORT: '0' }));
  });

  it('opens with npm start on the interface VIGIL_PLAYGROUND_HOST names, its own setting', async () => {
    // Another loopback address than the default: the page is where the setting says.
    const vigil = await startVigilProcess({ PORT: '0', VIGIL_PLAYGROUND_HOST: ' 127.0.0.2 ' });
    expect(vigil.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/$/);
    await opensThePage(vigil);
  });

  it('opens with npm run demo even when Slack and Vigil variables are set', async () => {
    const env = { PORT: '0', NODE_ENV: 'production', SLACK_SIGNING_SECRET: 's', VIGIL_API_KEY: 'k' };
    await opensThePage(await startVigilProcess(env, 30_000, 'demo'));
  });
});
