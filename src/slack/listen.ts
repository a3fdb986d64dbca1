/** Who clicked, from the verified interaction payload (never from a button value). */
import type { SlackAction } from '@slack/bolt';
import { workspaceKey } from '../store/index.js';
import type { Requester } from './context.js';

type InteractionBody = Pick<SlackAction, 'team' | 'user'> & {
  enterprise?: { id: string } | null;
  is_enterprise_install?: boolean;
  channel?: { id: string };
  container?: { channel_id?: string };
};

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
