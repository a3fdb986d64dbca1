/**
 * OAuth authorization with token rotation, safe across instances. @slack/oauth's `authorize` refreshes a bot
 * or user token that expires within two hours and stores the refreshed installation; two requests doing so at
 * once (two instances, or two events) exchange the same refresh token twice, and one of the stored results is
 * dead (slackapi/node-slack-sdk#2504). Here, when a refresh is due, `authorize` runs under a store lock per
 * installation: the first holder refreshes and stores; whoever waited then reads the refreshed installation
 * and finds nothing due. When nothing is due (nearly always) there is no lock, and the installation read to
 * decide is handed to the provider instead of being read twice. Should the exchange still be refused (a lock
 * outlived by a stalled holder, whose refresh token a successor then used: Slack's `invalid_refresh_token`), the
 * provider logs it and hands back the old token; the installation is then read again, and if a peer stored
 * fresh tokens meanwhile, those are used: nobody is answered with the dead grant.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { InstallProvider } from '@slack/oauth';
import type { Clock } from '../kernel/clock.js';
import { type Store, workspaceKey } from '../store/opening.js';

/** @slack/oauth refreshes tokens expiring within this window (its `detectExpiredOrExpiringTokens`). */
const ROTATION_WINDOW_SECONDS = 2 * 3600;

type Query = InstallationQuery<boolean>;
type AnyInstallation = Installation<'v1' | 'v2', boolean>;

/** Whether @slack/oauth would refresh a token of this installation at `nowSeconds`. @internal */
export function rotationDue(installation: AnyInstallation, nowSeconds: number): boolean {
  const due = (who: { refreshToken?: string | undefined; expiresAt?: number | undefined } | undefined) =>
    who?.refreshToken !== undefined &&
    typeof who.expiresAt === 'number' &&
    who.expiresAt - nowSeconds <= ROTATION_WINDOW_SECONDS;
  return due(installation.bot) || due(installation.user);
}

/**
 * The installation store to give the InstallProvider, and the `authorize` to give Bolt. `fetch` reads
 * straight from `installations`, except for an installation this module has just read for the same query.
 */
export function rotationSafeAuthorization(deps: {
  installations: InstallationStore;
  store: Pick<Store, 'withLock'>;
  clock: Clock;
}): {
  installationStore: InstallationStore;
  authorizeWith(installer: InstallProvider): InstallProvider['authorize'];
} {
  const { installations } = deps;
  // Bolt passes the same source object to `authorize` and the provider passes it on to `fetchInstallation`.
  const handedOver = new WeakMap<object, AnyInstallation>();
  const installationStore: InstallationStore = {
    storeInstallation: (installation, logger) => installations.storeInstallation(installation, logger),
    deleteInstallation: (query, logger) =>
      installations.deleteInstallation?.(query, logger) ?? Promise.resolve(),
    fetchInstallation: async (query, logger) => {
      const ready = handedOver.get(query);
      if (ready !== undefined) {
        handedOver.delete(query);
        return ready;
      }
      return installations.fetchInstallation(query, logger);
    },
  };
  const authorizeWith =
    (installer: InstallProvider): InstallProvider['authorize'] =>
    async (source) => {
      const query = source as Query;
      const installation = await installations.fetchInstallation(query).catch(() => undefined);
      // Not found or unreadable: the provider reads again and reports it as Bolt expects.
      if (installation === undefined) return installer.authorize(source);
      if (!rotationDue(installation, Math.floor(deps.clock.now() / 1000))) {
        handedOver.set(query, installation);
        return installer.authorize(source);
      }
      // The installation's own key, not the query's: a workspace of an org-wide install named alone (Vigil's
      // own posts) and a request of that org refresh the one installation under the same lock.
      const key = workspaceKey({
        teamId: installation.team?.id,
        enterpriseId: installation.enterprise?.id,
        isEnterpriseInstall: installation.isEnterpriseInstall,
      });
      return deps.store.withLock(`installation:${key}:rotation`, async () => {
        const result = await installer.authorize(source);
        if (result.botToken !== installation.bot?.token) return result;
        // Not refreshed by us: a peer may have refreshed (the refresh token we held was spent).
        const now = await installations.fetchInstallation(query).catch(() => undefined);
        if (now?.bot?.token === undefined || now.bot.token === installation.bot?.token) return result;
        handedOver.set(query, now);
        return installer.authorize(source);
      });
    };
  return { installationStore, authorizeWith };
}
