/** Pure Block Kit for the admin surfaces: who may act, the audit log. */
import type { KnownBlock } from '@slack/types';
import {
  type Actors,
  type AdminsSource,
  describeAdmins,
  PERMISSION_WORDS,
  PERMISSIONS,
  type Permission,
} from '../kernel/permission-rules.js';
import { ownContext, ownSection, type RenderedMessage } from '../slack/kit/kit.js';
import type { AuditEntry } from '../store/index.js';
import { auditLine, auditSummary } from './audit-blocks.js';

export function describeActors(actors: Actors): string {
  if (actors === 'everyone') return 'every member of the workspace';
  if (actors === 'admins') return 'workspace admins only';
  return `members of the user group <!subteam^${actors.usergroup.replace(/[^A-Z0-9]/gi, '')}>`;
}

const SECTION_MAX = 3000;

export function renderAudit(entries: AuditEntry[]): RenderedMessage {
  if (entries.length === 0)
    return { text: 'No actions recorded yet.', blocks: [ownSection('No actions recorded yet.')] };
  // Lines packed into sections within Slack's 3,000 characters each (a line alone is far shorter).
  const blocks: KnownBlock[] = [];
  let section: string[] = [];
  let size = 0;
  for (const line of entries.map(auditLine)) {
    if (section.length > 0 && size + 1 + line.length > SECTION_MAX) {
      blocks.push(ownSection(section.join('\n')));
      section = [];
      size = 0;
    }
    section.push(line);
    size += (size === 0 ? 0 : 1) + line.length;
  }
  if (section.length > 0) blocks.push(ownSection(section.join('\n')));
  return { text: auditSummary(entries.length), blocks: blocks.slice(0, 45) };
}

/** One line per permission: who may do it. */
export function permissionLines(permissions: Readonly<Record<Permission, Actors>>): string[] {
  return PERMISSIONS.map(
    (p) => `*Who may ${PERMISSION_WORDS[p]}* (\`${p}\`): ${describeActors(permissions[p])}`,
  );
}

export function renderSettings(
  permissions: Readonly<Record<Permission, Actors>>,
  admins: AdminsSource = 'slack',
  cardChannels: readonly string[] = [],
): RenderedMessage {
  const lines = [`*Who administers Vigil:* ${describeAdmins(admins)}`, ...permissionLines(permissions)];
  // Channel ids only (Slack's own format): a channel shared outside where an admin opened event cards.
  const opened = cardChannels.filter((c) => /^[CG][A-Z0-9]{2,20}$/.test(c)).map((c) => `<#${c}>`);
  if (opened.length > 0) lines.push(`*Event cards opened in channels shared outside:* ${opened.join(', ')}`);
  return {
    text: `Who may ignore, remediate or triage events: ${describeActors(permissions.act)}.`,
    blocks: [
      ownSection(lines.join('\n')),
      ownContext(
        `Admins change them with \`/vigil settings <${PERMISSIONS.join('|')}> everyone|admins|group:<usergroup-id>\`, and who administers with \`/vigil settings admins group:<usergroup-id>\` (\`admins\`: Slack’s admins again).`,
      ),
    ],
  };
}

/** A user group in words, from Slack's own names (escaped): `Security Operations, @secops`. */
export function usergroupLabel(g: { name: string; handle: string }): string {
  const clean = (t: string) =>
    t
      .replace(/[<>&*_~`]/g, ' ')
      .trim()
      .slice(0, 80);
  return [clean(g.name), g.handle ? `@${clean(g.handle)}` : ''].filter(Boolean).join(', ');
}

/** The answer to a group id that names no group of the workspace: nothing changed, and the groups there are. */
export function renderUnknownUsergroup(
  id: string,
  groups: readonly { id: string; name: string; handle: string }[],
): RenderedMessage {
  const shownId = id.replace(/[^A-Z0-9]/gi, '');
  const text = `No user group \`${shownId}\` in this workspace, so nothing was changed.`;
  const listed = groups.slice(0, 10).map((g) => `• ${usergroupLabel(g)}: \`group:${g.id}\``);
  if (groups.length > 10) listed.push(`• …and ${groups.length - 10} more`);
  const hint =
    groups.length === 0
      ? 'This workspace has no user groups yet: create one in Slack first, or use `everyone` or `admins`.'
      : `Mention the group (type @ and pick it) or use one of its ids:\n${listed.join('\n')}`;
  return {
    text,
    blocks: [ownSection(`:warning: ${text}`), ownContext(hint)],
  };
}
