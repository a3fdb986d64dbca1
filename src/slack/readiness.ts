/**
 * Slack authentication for `/readyz`: auth.test of the bot token (single workspace) or of each connected
 * workspace's installation (OAuth). Answers are cached by the readiness module, so a probe is not a call.
 */
// Through Bolt's re-export: importing @slack/web-api by name has Node parse its CommonJS exports again.
import { webApi } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Config } from '../app/config.js';
import type { CheckResult, CheckResults, ReadinessCheck } from '../observability/readiness.js';
import type { Repositories } from '../store/index.js';

/** How long an auth.test answer stands. */
const SLACK_AUTH_CACHE_MS = 30_000;
const AUTH_TEST_TIMEOUT_MS = 2_500;

export interface SlackAuthDeps {
  config: Pick<Config, 'slack'>;
  repos: Pick<Repositories, 'workspaces' | 'installations'>;
}

export function slackAuthCheck(deps: SlackAuthDeps): ReadinessCheck {
  const { slack } = deps.config;
  const clients = new Map<string, WebClient>();
  const authTest = async (token: string): Promise<CheckResult> => {
    let client = clients.get(token);
    if (!client) {
      client = new webApi.WebClient(token, {
        slackApiUrl: slack.apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: AUTH_TEST_TIMEOUT_MS,
      });
      clients.set(token, client);
    }
    try {
      await client.auth.test();
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: slackReason(err) };
    }
  };
  return {
    name: 'slack',
    cacheMs: SLACK_AUTH_CACHE_MS,
    async run(): Promise<CheckResults> {
      if (slack.mode.kind === 'single') return { slack: await authTest(slack.mode.botToken) };
      const ids = await deps.repos.workspaces.connectedIds();
      if (ids.length === 0) return { slack: { ok: true, reason: 'no workspace connected yet' } };
      const results: CheckResults = {};
      await Promise.all(
        ids.map(async (id) => {
          const installation = await deps.repos.installations
            .fetchInstallation({ teamId: id, enterpriseId: undefined, isEnterpriseInstall: false })
            .catch(() => undefined);
          const token = installation?.bot?.token;
          results[`slack:${id}`] = token ? await authTest(token) : { ok: false, reason: 'no installation' };
        }),
      );
      return results;
    },
  };
}

/** Slack's error code or the transport's, never the token. */
function slackReason(err: unknown): string {
  const e = err as { code?: string; data?: { error?: string } };
  if (e.code === webApi.ErrorCode.PlatformError)
    return `auth.test failed: ${e.data?.error ?? 'unknown error'}`;
  if (e.code === webApi.ErrorCode.RateLimitedError) return 'auth.test rate limited';
  return `auth.test got no answer (${e.code ?? 'error'})`;
}
