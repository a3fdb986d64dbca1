/**
 * The people an alert subscription mentions, confirmed with Slack before they are kept: user groups must be
 * among the workspace's enabled groups (usergroups.list), users must exist and not be deleted (users.info).
 * Only the ids Slack confirmed are stored, so an alert's mention is Vigil's own, never upstream text.
 */
import type { WebClient } from '@slack/web-api';
import type { AlertMention } from '../../store/index.js';
import type { AlertsDeps } from './deps.js';

/** The mention with every id confirmed, or what to say instead. */
export async function confirmMention(
  deps: Pick<AlertsDeps, 'authz'>,
  client: WebClient,
  mention: AlertMention,
): Promise<{ mention: AlertMention } | { refusal: string }> {
  const groups: string[] = [];
  if (mention.groups.length > 0) {
    const known = await deps.authz.usergroups(client);
    // The form gives handles (`@secops`); the command gives ids. Either way only a listed group's id is kept.
    const idOf = (g: string) =>
      g.startsWith('@')
        ? known.find((k) => k.handle !== '' && `@${k.handle}` === g)?.id
        : known.find((k) => k.id === g)?.id;
    const unknown = mention.groups.filter((g) => idOf(g) === undefined);
    if (unknown.length > 0)
      return {
        refusal: `Slack does not know the user group ${unknown.map((g) => `\`${g.replace(/[`<>&]/g, '')}\``).join(', ')} in this workspace (or it is disabled), so Vigil created no alerts. Type @ and pick the group from the list.`,
      };
    groups.push(...new Set(mention.groups.flatMap((g) => idOf(g) ?? [])));
  }
  for (const user of mention.users) {
    const res = await client.users.info({ user }).catch(() => undefined);
    if (res?.user?.id !== user || res.user.deleted)
      return {
        refusal: `Slack does not know the user \`${user}\` in this workspace, so Vigil created no alerts. Type @ and pick the person from the list.`,
      };
  }
  return { mention: { ...mention, groups } };
}

/** "mentions @group on critical alerts" for the confirmation. */
export function mentionWords(mention: AlertMention): string {
  const who = [...mention.groups.map((g) => `<!subteam^${g}>`), ...mention.users.map((u) => `<@${u}>`)];
  return ` Each ${mention.on === 'all' ? 'alert' : 'critical alert'} mentions ${who.join(' ')}.`;
}
