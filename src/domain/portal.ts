/** Where the threat-intel API's web portal lives, from the API host a workspace uses. */

/** The production portals, also used when the API host says nothing (a simulator on loopback). */
const DEFAULT_PORTAL_HOSTS: readonly string[] = ['app.flare.io', 'app.eu.flare.io'];

/**
 * `api.flare.io` → `app.flare.io`, `api.eu.flare.io` → `app.eu.flare.io`: an event's portal link is shown
 * only when it points at the portal of the API the workspace uses. Another host keeps the production ones.
 */
export function portalHostsOf(apiHost: string): readonly string[] {
  const host = apiHost.toLowerCase().replace(/:\d+$/, '');
  return host.startsWith('api.') ? [`app.${host.slice(4)}`] : DEFAULT_PORTAL_HOSTS;
}
