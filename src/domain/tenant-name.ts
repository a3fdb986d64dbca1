/** How a tenant is named: its upstream name kept as a label, or a generic one when the API gave none. */

/** What a tenant is called when the API gave it no name. */
export const UNNAMED_TENANT = 'Unnamed tenant';
/** A name is a label: a longer one is cut to this many characters (whole characters, then an ellipsis). */
const MAX_TENANT_NAME = 100;

/** The name to keep and show for an upstream tenant name; undefined when there is none. */
export function tenantName(name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  if (!trimmed) return undefined;
  const chars = [...trimmed];
  return chars.length <= MAX_TENANT_NAME ? trimmed : `${chars.slice(0, MAX_TENANT_NAME - 1).join('')}…`;
}
