/**
 * Who asked, from the verified payload (never from a button value): the workspace, team, user and channel of
 * an interaction, a slash command or an Events API envelope.
 */
import type { SlackAction, SlashCommand } from '@slack/bolt';
import { workspaceKey } from '../store/opening.js';
import type { Requester } from './context.js';

type InteractionBody = Pick<SlackAction, 'team' | 'user'> & {
  enterprise?: { id: string } | null;
  is_enterprise_install?: boolean;
  channel?: { id: string };
  container?: { channel_id?: string };
};

/** Who clicked or submitted, from the verified interaction payload. */
export function requesterOfAction(body: SlackAction | InteractionBody): Requester {
  const b = body as InteractionBody;
  const teamId = b.team?.id ?? '';
  const enterpriseId = b.enterprise?.id ?? undefined;
  return {
    workspaceId: workspaceKey({
      teamId,
      enterpriseId,
      isEnterpriseInstall: b.is_enterprise_install === true,
    }),
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
    workspaceId: workspaceKey({
      teamId: command.team_id,
      enterpriseId,
      isEnterpriseInstall: command.is_enterprise_install === 'true',
    }),
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

/** The workspace of an Events API envelope (org-wide installs are keyed by their enterprise). */
export function workspaceOfEnvelope(body: EnvelopeIds): string {
  const auth = body.authorizations?.[0];
  return workspaceKey({
    teamId: auth?.team_id ?? body.team_id,
    enterpriseId: auth?.enterprise_id ?? body.enterprise_id,
    isEnterpriseInstall: auth?.is_enterprise_install ?? body.is_enterprise_install,
  });
}
