/**
 * The two servers compared: Vigil as `main.ts` would start it (HTTP receiver, SQLite store, single
 * workspace), and a bare Bolt app with its stock HTTPReceiver acking the same command — the floor Bolt costs.
 * Both run in this process on 127.0.0.1 next to the simulated threat-intel API and the fake Slack, so the
 * benchmark needs no network.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, LogLevel, type RespondArguments } from '@slack/bolt';
import { type SimApi, startSimApi } from '../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from '../packages/playground/src/sim/slack/index.js';
import { loadConfig } from '../src/app/config.js';
import { vigilGrammar } from '../src/app/features.js';
import { startVigil } from '../src/app/start.js';
import { createLogger } from '../src/kernel/logger.js';
import { renderHelp } from '../src/slack/grammar/help-blocks.js';

export const SIGNING_SECRET = 'bench-signing-secret-0123456789abcdef';
const HOST = '127.0.0.1';

export interface Target {
  /** Where Slack would POST: `<origin>/slack/events`. */
  eventsUrl: string;
  stop(): Promise<void>;
}

/** The upstreams Vigil talks to, shared by every target started in one run. */
export interface Upstreams {
  sim: SimApi;
  slack: FakeSlack;
  /** A response_url on the fake Slack, for the command bodies (`help` never posts to it). */
  responseUrl: string;
  close(): Promise<void>;
}

export async function startUpstreams(): Promise<Upstreams> {
  const sim = await startSimApi();
  const slack = await startFakeSlack();
  return {
    sim,
    slack,
    responseUrl: slack.responseUrl(),
    async close() {
      await Promise.allSettled([sim.close(), slack.close()]);
    },
  };
}

export interface VigilTarget extends Target {
  /** Log lines Vigil produced (written nowhere, but formatted as in production at `info`). */
  logLines(): number;
}

/** Starts Vigil with a fresh SQLite file; `stop` also deletes it. */
export async function startVigilTarget(up: Upstreams): Promise<VigilTarget> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-bench-'));
  let lines = 0;
  const logger = createLogger({ level: 'info', write: () => lines++ });
  const config = loadConfig({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: up.slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: up.sim.url,
    LOG_LEVEL: 'info',
  });
  try {
    const vigil = await startVigil({ config, logger, host: HOST });
    return {
      eventsUrl: `${vigil.url}/slack/events`,
      logLines: () => lines,
      async stop() {
        await vigil.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

export const BASELINE_ACK_TEXT = 'Vigil help would go here.';

/** The ack Vigil answers `/vigil help` with, for a Bolt app that sends the same bytes without Vigil's code. */
export function vigilHelpAck(): RespondArguments {
  return { response_type: 'ephemeral', ...renderHelp(vigilGrammar.helpText()) };
}

export interface BareBoltOptions {
  /**
   * Defer initialization and await `app.init()`, i.e. wait for `auth.test` before listening as Vigil does.
   * Stock Bolt (the default) fires `auth.test` from the constructor without waiting for it.
   */
  awaitInit?: boolean;
  /** What the `/vigil` listener acks with; default a short ephemeral text. */
  ackBody?: RespondArguments;
}

/** Stock Bolt: `new App` with token + signing secret, default HTTPReceiver, one `/vigil` listener that acks. */
export async function startBareBolt(up: Upstreams, opts: BareBoltOptions = {}): Promise<Target> {
  const app = new App({
    token: DEFAULT_BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    clientOptions: { slackApiUrl: up.slack.apiUrl },
    logLevel: LogLevel.ERROR,
    deferInitialization: opts.awaitInit === true,
  });
  if (opts.awaitInit) await app.init();
  app.command('/vigil', async ({ ack }) => {
    await ack(opts.ackBody ?? { response_type: 'ephemeral', text: BASELINE_ACK_TEXT });
  });
  const server = (await app.start({ port: 0, host: HOST })) as Server;
  const { port } = server.address() as AddressInfo;
  return {
    eventsUrl: `http://${HOST}:${port}/slack/events`,
    async stop() {
      // Bolt's stop waits for keep-alive sockets to close; the load client's pools are closed first.
      server.closeAllConnections();
      await app.stop();
    },
  };
}
