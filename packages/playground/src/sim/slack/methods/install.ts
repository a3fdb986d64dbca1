/** Installation lifecycle: auth.test, the OAuth code exchange, and uninstall. */
import { clientCredentials } from '../request-body.js';
import { DEFAULT_BOT_SCOPES } from '../state.js';
import type { BotMethod, ClientContext, ClientMethod } from './common.js';
import { fail, str } from './common.js';

const authTest: BotMethod = ({ team }) => ({
  ok: true,
  url: `https://${team.domain}.slack.com/`,
  team: team.name,
  user: 'vigil',
  team_id: team.teamId,
  user_id: team.botUserId,
  bot_id: team.botId,
  is_enterprise_install: team.isEnterpriseInstall ?? false,
  ...(team.enterpriseId !== undefined ? { enterprise_id: team.enterpriseId } : {}),
});

const appsUninstall: BotMethod = ({ state, team, body, headers, clientId, clientSecret }) => {
  const creds = clientCredentials(headers, body);
  if (creds.clientId !== clientId) return fail('invalid_client_id');
  if (creds.clientSecret !== clientSecret) return fail('bad_client_secret');
  for (const [token, teamId] of state.tokens) {
    if (teamId === team.teamId) state.revokedTokens.add(token);
  }
  return { ok: true };
};

const oauthV2Access: ClientMethod = ({ state, body, headers, clientId, clientSecret }) => {
  // The method takes its credentials from Basic auth or the body, never a bearer token.
  const creds = clientCredentials(headers.authorization?.startsWith('Bearer') ? {} : headers, body);
  if (creds.clientId !== clientId) return fail('invalid_client_id');
  if (creds.clientSecret !== clientSecret) return fail('bad_client_secret');
  if (str(body, 'grant_type') === 'refresh_token') return rotate(state, str(body, 'refresh_token'));
  const code = str(body, 'code');
  const grant = code === undefined ? undefined : state.oauthCodes.get(code);
  if (code === undefined || grant === undefined) return fail('invalid_code');
  state.oauthCodes.delete(code);
  if (grant.redirectUri !== undefined && str(body, 'redirect_uri') !== grant.redirectUri) {
    return fail('bad_redirect_uri');
  }
  const existing = state.teams.get(grant.teamId);
  const scope = grant.scope ?? DEFAULT_BOT_SCOPES.join(',');
  const botToken = `xoxb-${grant.teamId.slice(1)}-${state.randomKey(9)}`;
  const team = state.addTeam({
    teamId: grant.teamId,
    name: grant.teamName ?? existing?.name ?? `Team ${grant.teamId}`,
    botToken,
    botUserId: existing?.botUserId ?? state.nextId('U'),
    ...(grant.enterpriseId !== undefined ? { enterpriseId: grant.enterpriseId } : {}),
    isEnterpriseInstall: grant.isEnterpriseInstall ?? false,
    scopes: scope.split(','),
  });
  const userId = grant.userId ?? 'U0OWNER01';
  return {
    ok: true,
    app_id: state.appId,
    authed_user: { id: userId },
    scope,
    token_type: 'bot',
    access_token: botToken,
    bot_user_id: team.botUserId,
    team: grant.isEnterpriseInstall ? null : { id: team.teamId, name: team.name },
    enterprise:
      grant.enterpriseId !== undefined
        ? { id: grant.enterpriseId, name: grant.enterpriseName ?? `Org ${grant.enterpriseId}` }
        : null,
    is_enterprise_install: grant.isEnterpriseInstall ?? false,
  };
};

/** Token rotation: a refresh token is exchanged once for a new bot token and a new refresh token. */
function rotate(state: ClientContext['state'], refreshToken: string | undefined) {
  const entry = refreshToken === undefined ? undefined : state.refreshTokens.get(refreshToken);
  if (entry === undefined || entry.used) return fail('invalid_refresh_token');
  entry.used = true;
  const team = state.teams.get(entry.teamId);
  if (team === undefined) return fail('invalid_refresh_token');
  const botToken = `xoxe.xoxb-${entry.teamId.slice(1)}-${state.randomKey(9)}`;
  state.tokens.set(botToken, entry.teamId);
  const next = `xoxe-1-${entry.teamId.slice(1)}-${state.randomKey(10)}`;
  state.refreshTokens.set(next, { teamId: entry.teamId, used: false });
  return {
    ok: true,
    app_id: state.appId,
    token_type: 'bot',
    access_token: botToken,
    refresh_token: next,
    expires_in: 43_200,
    scope: (team.scopes ?? DEFAULT_BOT_SCOPES).join(','),
    bot_user_id: team.botUserId,
    team: { id: team.teamId, name: team.name },
    enterprise: null,
    is_enterprise_install: false,
  };
}

export const installBotMethods: Record<string, BotMethod> = {
  'auth.test': authTest,
  'apps.uninstall': appsUninstall,
};

export const installClientMethods: Record<string, ClientMethod> = {
  'oauth.v2.access': oauthV2Access,
};
