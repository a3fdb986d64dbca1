/**
 * A failed start says which call to which host failed and what to check, not "fetch failed": Vigil started
 * for real against a Slack address where nothing listens, one that never answers, one that does not resolve, a
 * port fetch refuses, and
 * a proxy that is down.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.js';
import { startVigil } from '../../src/app/start.js';
import { createLogger } from '../../src/kernel/logger.js';
import { explainStartFailure } from '../../src/kernel/start-failure.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-start-failure-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Every log line of the failed starts (JSON), to check what they name. */
const lines: string[] = [];
const logger = createLogger({ level: 'warn', format: 'json', write: (line) => lines.push(line) });

async function failedStart(env: Record<string, string>): Promise<string | undefined> {
  const config = loadConfig({
    SLACK_BOT_TOKEN: 'xoxb-1-2-start-failure',
    SLACK_SIGNING_SECRET: 'secret',
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dir, `${randomBytes(4).toString('hex')}.sqlite`)}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_SLACK_TIMEOUT_MS: '2000',
    ...env,
  });
  try {
    const vigil = await startVigil({ config, logger, host: '127.0.0.1' });
    await vigil.stop();
  } catch (err) {
    return explainStartFailure(err, config);
  }
  throw new Error('Vigil started');
}

it('names the call, the host and what to check', async () => {
  const port = await closedPort();
  expect(await failedStart({ SLACK_API_URL: `http://127.0.0.1:${port}/api/` })).toBe(
    `checking the bot token (auth.test) at 127.0.0.1:${port} failed: nothing accepts connections there (ECONNREFUSED): check the URL and port`,
  );
  // Before that line, the Slack web client's own warnings of its retries name the host too.
  const retries = lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.component === 'bolt');
  expect(retries.length).toBeGreaterThan(0);
  for (const line of retries) expect(line.slackApi).toBe(`127.0.0.1:${port}`);
  expect(await failedStart({ SLACK_API_URL: 'https://slack.vigil.invalid/api/' })).toMatch(
    /^checking the bot token \(auth\.test\) at slack\.vigil\.invalid failed: the host name does not resolve \((ENOTFOUND|EAI_AGAIN)\): check DNS/,
  );
  expect(await failedStart({ SLACK_API_URL: 'http://127.0.0.1:6000/api/' })).toBe(
    'checking the bot token (auth.test) at 127.0.0.1:6000 failed: the port is one fetch refuses to use (a "bad port" of the Fetch standard): use another port in the URL',
  );
  // A host that takes the connection and never answers is not a DNS problem.
  const held: Socket[] = [];
  const silent = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentPort = (silent.address() as { port: number }).port;
  try {
    expect(await failedStart({ SLACK_API_URL: `http://127.0.0.1:${silentPort}/api/` })).toBe(
      `checking the bot token (auth.test) at 127.0.0.1:${silentPort} failed: no answer in time: the host accepted the connection but did not answer; check the URL`,
    );
  } finally {
    for (const socket of held) socket.destroy();
    silent.close();
  }
  expect(await failedStart({ HTTPS_PROXY: `http://127.0.0.1:${port}` })).toBe(
    'checking the bot token (auth.test) at slack.com through the proxy failed: nothing accepts connections there (ECONNREFUSED): check the URL and port and HTTPS_PROXY / NO_PROXY',
  );
}, 120_000);
