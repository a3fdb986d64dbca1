/**
 * Posting on Vigil's own initiative (digests, alerts), with no request to answer: a WebClient per bot token
 * (the single token, or the workspace's installation in OAuth mode), Slack's failures as the services' own
 * errors, and the search of a channel's recent history for a message by the run id in its metadata, so a
 * post whose answer was lost is found instead of made twice.
 */
import { LogLevel } from '@slack/bolt';
import { ErrorCode, type WebAPICallResult, WebClient } from '@slack/web-api';
import type { Config } from '../app/config.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import {
  CHANNEL_PROBLEMS,
  type ChannelProblem,
  ChannelUnavailableError,
  SlackRateLimitedError,
} from '../kernel/posting-errors.js';
import type { Repositories } from '../store/index.js';
import { toBoltLogger } from './bolt-logger.js';
import { observedFetch, type SlackCallObserver } from './call-metrics.js';

const HISTORY_PAGES = 5;
const HISTORY_PAGE_SIZE = 200;

export interface BotClientsDeps {
  config: Pick<Config, 'slack'>;
  repos: Pick<Repositories, 'installations'>;
  logger: Logger;
  /** The outbound proxy's fetch, when one is set. */
  outbound?: Pick<Outbound, 'fetch'> | undefined;
  /** Told of every call (metrics). */
  slackCalls?: SlackCallObserver | undefined;
}

/** One WebClient per bot token; rate-limited calls are rejected so the caller waits on the clock instead. */
export class BotClients {
  private readonly clients = new Map<string, WebClient>();
  constructor(private readonly deps: BotClientsDeps) {}

  async forWorkspace(workspaceId: string): Promise<WebClient> {
    return this.forToken(await this.tokenOf(workspaceId));
  }

  /** A client for `token` (a workflow step execution's own token, say), made once. */
  forToken(token: string): WebClient {
    let client = this.clients.get(token);
    if (!client) {
      client = new WebClient(token, {
        slackApiUrl: this.deps.config.slack.apiUrl,
        rejectRateLimitedCalls: true,
        // No blind retries: a post whose answer was lost may have landed. The outbox retries on a later
        // tick, after looking for the run id in the channel's history.
        retryConfig: { retries: 0 },
        timeout: 15_000,
        fetch: observedFetch(
          this.deps.outbound?.fetch ?? ((input, init) => globalThis.fetch(input, init)),
          this.deps.slackCalls,
        ),
        logger: toBoltLogger(this.deps.logger.child({ component: 'slack-poster' }), LogLevel.WARN),
      });
      this.clients.set(token, client);
    }
    return client;
  }

  private async tokenOf(workspaceId: string): Promise<string> {
    const mode = this.deps.config.slack.mode;
    if (mode.kind === 'single') return mode.botToken;
    const installation = await this.deps.repos.installations.fetchInstallation({
      teamId: workspaceId,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    const token = installation.bot?.token;
    if (!token) throw new ChannelUnavailableError('channel_not_found');
    return token;
  }
}

/** Slack's answer as the services' error: channel problems pause, 429 waits. */
export function slackFailure(err: unknown): unknown {
  const e = err as { code?: string; data?: { error?: string }; retryAfter?: number };
  if (e.code === ErrorCode.RateLimitedError) return new SlackRateLimitedError((e.retryAfter ?? 1) * 1000);
  const error = e.data?.error;
  if (e.code === ErrorCode.PlatformError && (CHANNEL_PROBLEMS as readonly string[]).includes(error ?? '')) {
    return new ChannelUnavailableError(error as ChannelProblem);
  }
  return err;
}

interface HistoryMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: { run_id?: unknown } };
}

/** The ts of Vigil's message of type `eventType` carrying `runId` in the channel since `oldestMs`, if any. */
export async function findByRunId(
  client: WebClient,
  where: { channelId: string; oldestMs: number },
  eventType: string,
  runId: string,
): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < HISTORY_PAGES; page++) {
    let res: WebAPICallResult & { messages?: HistoryMessage[]; response_metadata?: { next_cursor?: string } };
    try {
      res = await client.conversations.history({
        channel: where.channelId,
        oldest: (Math.max(0, where.oldestMs) / 1000).toFixed(6),
        limit: HISTORY_PAGE_SIZE,
        include_all_metadata: true,
        ...(cursor ? { cursor } : {}),
      });
    } catch (err) {
      throw slackFailure(err);
    }
    const found = res.messages?.find(
      (m) => m.metadata?.event_type === eventType && m.metadata.event_payload?.run_id === runId,
    );
    if (found?.ts) return found.ts;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}
