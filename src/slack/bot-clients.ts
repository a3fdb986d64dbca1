/**
 * Posting on Vigil's own initiative (digests, alerts), with no request to answer: a WebClient per bot token
 * (the single token, or the workspace's installation in OAuth mode), Slack's failures as the services' own
 * errors. Nothing here reads a channel's history: outside the Marketplace's exemption
 * `conversations.history`/`replies` give one request a minute (docs.slack.dev/changelog/2025/05/29/tos-updates),
 * so a post's fate is known from Vigil's own records (the outbox), never from Slack.
 */
import { LogLevel } from '@slack/bolt';
import { ErrorCode, WebClient } from '@slack/web-api';
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

export interface BotClientsDeps {
  config: Pick<Config, 'slack'>;
  repos: Pick<Repositories, 'installations'>;
  logger: Logger;
  /** The outbound proxy's fetch, when one is set. */
  outbound?: Pick<Outbound, 'fetch'> | undefined;
  /** Told of every call (metrics). */
  slackCalls?: SlackCallObserver | undefined;
  /**
   * OAuth mode: the bot token of a workspace as requests get it (token rotation refreshes it, once across
   * instances); without it, the stored installation's token is used as it is.
   */
  botToken?: ((workspaceId: string) => Promise<string | undefined>) | undefined;
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
        // No blind retries: a post whose answer was lost may have landed. The outbox decides on a later
        // tick, from its own record of the run.
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
    if (this.deps.botToken) {
      const token = await this.deps.botToken(workspaceId);
      if (!token) throw new ChannelUnavailableError('channel_not_found');
      return token;
    }
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
