/**
 * The shared end-to-end stack (test/support/stack.ts) with the events feature registered, plus the steps
 * every events test takes: run a command, click a button, read what reached Slack and the simulated API.
 *
 * The shared stack starts Vigil with ALL_FEATURES, which does not list the events feature yet; this copy
 * differs only in passing the features explicitly.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../../../src/clock.js';
import { loadConfig } from '../../../../../src/config.js';
import { createLogger } from '../../../../../src/logger.js';
import type { LoggedRequest, SimOptions } from '../../../../../src/sim/api/index.js';
import { startSimApi } from '../../../../../src/sim/api/index.js';
import {
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  type ResponseUrlPost,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startFakeSlack,
} from '../../../../../src/sim/slack/index.js';
import { eventsFeature } from '../../../../../src/slack/features/events/index.js';
import { ALL_FEATURES } from '../../../../../src/slack/features/index.js';
import { startVigil } from '../../../../../src/start.js';
import { createSlackSender, getButton } from '../../../../harness/index.js';
import type { Stack } from '../../../../support/stack.js';

export const SIGNING_SECRET = 'events-e2e-signing-secret-0123456789';
export { SEEDED_CHANNELS, SEEDED_USERS };

export interface EventsStackOptions {
  sim?: Partial<SimOptions> & { emptyPageEvery?: number };
  clock?: Clock;
  connect?: boolean;
}

export async function startEventsStack(opts: EventsStackOptions = {}): Promise<Stack> {
  const sim = await startSimApi({
    ...(opts.clock ? { clock: opts.clock } : {}),
    emptyPageEvery: opts.sim?.emptyPageEvery ?? 0,
  });
  const slack = await startFakeSlack();
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-events-e2e-'));
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const config = loadConfig({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    LOG_LEVEL: 'debug',
  });
  const features = ALL_FEATURES.includes(eventsFeature) ? ALL_FEATURES : [...ALL_FEATURES, eventsFeature];
  const vigil = await startVigil({
    config,
    logger,
    host: '127.0.0.1',
    features,
    ...(opts.clock ? { clock: opts.clock } : {}),
  }).catch(async (err: unknown) => {
    await Promise.allSettled([sim.close(), slack.close(), rm(dataDir, { recursive: true, force: true })]);
    throw err;
  });
  const workspaceId = DEFAULT_TEAM_ID;
  if (opts.connect !== false) {
    const key = sim.keys[0];
    if (!key) throw new Error('the simulated API has no keys');
    await vigil.deps.repos.workspaces.put(workspaceId, {
      teamId: workspaceId,
      apiHost: new URL(sim.url).host,
      apiKey: key.apiKey,
      apiKeyId: key.apiKeyId,
      organizationId: key.organizationId,
      tenantId: key.defaultTenantId,
      tenantName: 'Acme Production',
      scopes: key.scopes,
      connectedBy: SEEDED_USERS.admin,
    });
  }
  const sender = createSlackSender({
    receiverUrl: `${vigil.url}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  return {
    vigil,
    sim,
    slack,
    sender,
    workspaceId,
    logs,
    dataDir,
    async close() {
      await vigil.stop();
      await Promise.allSettled([sim.close(), slack.close()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ── Steps ─────────────────────────────────────────────────────────────────────────────────────────────

/** The identifiers of the first simulated key's default tenant (2001). */
export const IDENTIFIER = { domain: 3001, keyword: 3002, email: 3003 } as const;

export interface Sent {
  responseUrl: string;
  ack: unknown;
  /** The first post to the response_url (the results, or the error). */
  post: ResponseUrlPost;
}

export async function command(
  stack: Stack,
  text: string,
  opts: { userId?: string; channelId?: string; triggerId?: string } = {},
): Promise<Sent> {
  const responseUrl = stack.slack.responseUrl();
  const res = await stack.sender.slashCommand({
    text,
    responseUrl,
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.channelId ? { channelId: opts.channelId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  if (res.status !== 200) throw new Error(`slash command answered ${res.status}`);
  const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
  return { responseUrl, ack: res.body, post };
}

export interface Clicked {
  responseUrl: string;
  status: number;
}

/** Clicks a button of an ephemeral message (the blocks the test holds) or of a channel message. */
export async function click(
  stack: Stack,
  source: { blocks?: unknown[] | undefined; ts?: string },
  button: string,
  opts: { userId?: string; container?: 'ephemeral' | 'message'; channelId?: string } = {},
): Promise<Clicked> {
  const b = getButton(source, button);
  if (b.action_id === undefined) throw new Error(`button ${button} has no action_id`);
  const responseUrl = stack.slack.responseUrl();
  const container = opts.container ?? 'ephemeral';
  const res = await stack.sender.blockAction({
    actionId: b.action_id,
    ...(b.value !== undefined ? { value: b.value } : {}),
    ...(b.block_id !== undefined ? { blockId: b.block_id } : {}),
    container,
    responseUrl,
    channelId: opts.channelId ?? SEEDED_CHANNELS.general,
    message: { ts: source.ts ?? '1700000000.000100', blocks: source.blocks ?? [] },
    ...(opts.userId ? { userId: opts.userId } : {}),
  });
  return { responseUrl, status: res.status };
}

export function postsTo(stack: Stack, responseUrl: string): ResponseUrlPost[] {
  return stack.slack.postsTo(responseUrl);
}

export function waitPostTo(stack: Stack, responseUrl: string, n = 1): Promise<ResponseUrlPost> {
  let seen = 0;
  return stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl && ++seen >= n);
}

export function searchBodies(stack: Stack): unknown[] {
  return stack.sim.log.entries.filter((e) => e.path.endsWith('/_search')).map((e) => e.body);
}

export function actionCalls(stack: Stack): LoggedRequest[] {
  return stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));
}

/** Everything Vigil sent to Slack, to search for what must never be there. */
export function everythingSent(stack: Stack): string {
  return stack.slack.allText();
}
