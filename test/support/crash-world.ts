/**
 * What every crash test stands on: the simulated API and Slack on 127.0.0.1, a temp folder for the SQLite file,
 * and Vigil in child processes that the test kills with SIGKILL. Each file opens one world and closes it after.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimApi, startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from '../../packages/playground/src/sim/slack/index.js';
import { createSlackSender, type SlackSender } from '../harness/index.js';
import { guardSlackContract } from './slack-contract.js';
import { startVigilProcess } from './vigil-process.js';

export interface CrashWorld {
  sim: SimApi;
  slack: FakeSlack;
  /** The temp folder of the SQLite files. */
  dir: string;
  /**
   * The environment of a Vigil connected from it to the simulated API, on `<dir>/<file>`, with one encryption
   * key per call (give the same env to the restarted process).
   */
  env(extra?: Record<string, string>, file?: string): Record<string, string>;
  /** Starts Vigil in its own process; `close` kills whatever is left. */
  start(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }>;
  /** A sender of signed requests to a running Vigil. */
  sender(url: string): SlackSender;
  close(): Promise<void>;
}

const SECRET = 'crash-world-signing-secret-0123456789';

export async function openCrashWorld(
  opts: { sim?: Parameters<typeof startSimApi>[0]; slackContract?: boolean } = {},
): Promise<CrashWorld> {
  const sim = await startSimApi(opts.sim);
  const fake = await startFakeSlack();
  // Slack checks a step's outputs against the manifest: the tests of steps want the fake to, too.
  const slack = opts.slackContract ? guardSlackContract(fake) : fake;
  const dir = await mkdtemp(join(tmpdir(), 'vigil-crash-'));
  const children: ChildProcess[] = [];
  return {
    sim,
    slack,
    dir,
    env: (extra = {}, file = 'vigil.sqlite') => ({
      SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      VIGIL_STORE: `sqlite://${join(dir, file)}`,
      VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      VIGIL_API_URL: sim.url,
      VIGIL_API_KEY: sim.keys[0]?.apiKey ?? '',
      LOG_LEVEL: 'info',
      ...extra,
    }),
    start: (env) => startVigilProcess(env, children),
    sender: (url) => createSlackSender({ receiverUrl: `${url}/slack/events`, signingSecret: SECRET }),
    async close() {
      for (const c of children) c.kill('SIGKILL');
      await Promise.allSettled([sim.close(), slack.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
