/**
 * The optional bot scopes (manifest.yml `oauth_config.scopes.bot_optional`) a workspace's installer granted.
 * Since 2026-03-16 an installer may decline an optional scope, and a workspace admin may withhold it
 * (https://docs.slack.dev/changelog/2026/03/16/optional-scopes); the feature that needs a declined scope is off
 * for that workspace, and says so in `/vigil status` and App Home. What was granted is what Slack reports:
 * in OAuth mode the `scope` of oauth.v2.access, kept by Bolt as the installation's `bot.scopes`; with one
 * bot token, the `x-oauth-scopes` header of auth.test (the WebClient's `response_metadata.scopes`).
 * Nothing reported (an installation from before, a header missing) counts as granted: a feature is turned
 * off only on Slack's word.
 */
import type { InstallationQuery } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';

/** Each optional scope and the feature it carries, as a person reads it. */
export const OPTIONAL_SCOPES = {
  'users:read.email': 'Ask the affected person',
  'links:read': 'Event cards for portal links',
  'mcp:connect': 'Ask Vigil from Slackbot',
} as const;

export type OptionalScope = keyof typeof OPTIONAL_SCOPES;

/** One bot token's scopes are asked of auth.test again after this long (a reinstall changes them). */
const SINGLE_TOKEN_TTL_MS = 10 * 60_000;

export interface GrantedScopesDeps {
  /** OAuth mode: the stored installation of a workspace (Bolt's InstallationStore). */
  installations?: {
    fetchInstallation(
      query: InstallationQuery<boolean>,
    ): Promise<{ bot?: { scopes?: string[] } | undefined }>;
  };
  /** Single-workspace mode: the bot's client, whose auth.test reports the token's scopes. */
  singleClient?: () => Promise<Pick<WebClient, 'auth'>>;
  now: () => number;
}

export class GrantedScopes {
  private single: { at: number; scopes: Promise<readonly string[] | undefined> } | undefined;

  constructor(private readonly deps: GrantedScopesDeps) {}

  /** The optional scopes `workspaceId`'s installation lacks, in manifest order. */
  async declined(workspaceId: string): Promise<OptionalScope[]> {
    const granted = await this.reported(workspaceId).catch(() => undefined);
    if (granted === undefined) return [];
    const have = new Set(granted);
    return (Object.keys(OPTIONAL_SCOPES) as OptionalScope[]).filter((s) => !have.has(s));
  }

  async has(workspaceId: string, scope: OptionalScope): Promise<boolean> {
    return !(await this.declined(workspaceId)).includes(scope);
  }

  private async reported(workspaceId: string): Promise<readonly string[] | undefined> {
    const { installations, singleClient } = this.deps;
    if (installations !== undefined) {
      const installation = await installations.fetchInstallation({
        teamId: workspaceId,
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      return installation.bot?.scopes;
    }
    if (singleClient === undefined) return undefined;
    const now = this.deps.now();
    if (this.single === undefined || now - this.single.at >= SINGLE_TOKEN_TTL_MS) {
      const scopes = singleClient().then(async (c) => (await c.auth.test()).response_metadata?.scopes);
      // A failed check is asked again next time rather than remembered.
      scopes.catch(() => {
        this.single = undefined;
      });
      this.single = { at: now, scopes };
    }
    return this.single.scopes;
  }
}

/** The line `/vigil status` and App Home show for a declined scope. */
export function declinedLine(scope: OptionalScope): string {
  return `${OPTIONAL_SCOPES[scope]} is off: the \`${scope}\` scope was not granted; an admin can grant it by reinstalling Vigil.`;
}
