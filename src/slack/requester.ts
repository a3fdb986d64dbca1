/**
 * Who asked, from the verified payload (never from a button value): the workspace, team, user and channel of
 * an interaction, a slash command or an Events API envelope.
 *
 * A workspace is its team, under an org-wide install too: each workspace of the organization keeps its own
 * connection, settings, subscriptions and audit (the installation alone is the organization's, keyed by the
 * enterprise id in the installation store). The enterprise id stands for the workspace only when a payload
 * names no team.
 */
import type { SlackAction, SlashCommand } from '@slack/bolt';
import type { Requester } from './context.js';

type InteractionBody = Pick<SlackAction, 'team' | 'user'> & {
  enterprise?: { id: string } | null;
  is_enterprise_install?: boolean;
  channel?: { id: string };
  container?: { channel_id?: string };
};

function workspaceOf(teamId: string | null | undefined, enterpriseId: string | null | undefined): string {
  const id = teamId || enterpriseId;
  if (!id) throw new Error('a workspace needs a team id or an enterprise id');
  return id;
}

/** Who clicked or submitted, from the verified interaction payload. */
export function requesterOfAction(body: SlackAction | InteractionBody): Requester {
  const b = body as InteractionBody;
  // Org-wide apps may get `team: null` (a surface of the organization): the member's own workspace then.
  const teamId = b.team?.id ?? (b.user as { team_id?: string }).team_id ?? '';
  const enterpriseId = b.enterprise?.id ?? undefined;
  return {
    workspaceId: workspaceOf(teamId, enterpriseId),
    teamId,
    enterpriseId,
    userId: b.user.id,
    channelId: b.channel?.id ?? b.container?.channel_id ?? '',
  };
}

/** Who typed a slash command. */
export function requesterOfCommand(command: SlashCommand): Requester {
  const enterpriseId = command.enterprise_id || undefined;
  return {
    workspaceId: workspaceOf(command.team_id, enterpriseId),
    teamId: command.team_id,
    enterpriseId,
    userId: command.user_id,
    channelId: command.channel_id,
  };
}

export interface EnvelopeIds {
  team_id?: string;
  enterprise_id?: string;
  is_enterprise_install?: boolean;
  authorizations?: {
    team_id?: string | null;
    enterprise_id?: string | null;
    is_enterprise_install?: boolean;
  }[];
}

/**
 * The workspace of an Events API envelope: the authorization's team, else (an org-wide authorization names
 * none) the envelope's, the workspace the event happened in.
 */
export function workspaceOfEnvelope(body: EnvelopeIds): string {
  const auth = body.authorizations?.[0];
  return workspaceOf(auth?.team_id || body.team_id, auth?.enterprise_id ?? body.enterprise_id);
}
