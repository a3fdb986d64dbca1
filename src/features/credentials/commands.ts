/** `/vigil creds <domain|email|keyword|authdomain> <value> [filters]` and `/vigil creds password`. */
import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import type { Command, TimeBound } from '../../slack/grammar/index.js';
import { COMMAND, toCredentialSearchInput } from '../../slack/grammar/index.js';
import type { CredentialsDeps } from './deps.js';
import { credsPage } from './page.js';
import { openPasswordModal } from './views.js';

type CredsCommand = Extract<Command, { kind: 'creds' }>;

const TYPE_WORDS = {
  domain: 'domain',
  email: 'email',
  keyword: 'keyword',
  auth_domain: 'authdomain',
} as const;

function bound(b: TimeBound): string {
  return b.kind === 'relative' ? `${b.amount}${b.unit}` : b.kind === 'date' ? b.date : b.iso;
}

/** The command back as text people can paste; relative times stay relative. */
function credsCommandText(cmd: CredsCommand): string {
  const parts = [COMMAND, 'creds', TYPE_WORDS[cmd.query.type], cmd.query.value];
  const f = cmd.filters;
  if (f.since) parts.push(`since:${bound(f.since)}`);
  if (f.until) parts.push(`until:${bound(f.until)}`);
  if (f.limit !== undefined) parts.push(`limit:${f.limit}`);
  if (f.include?.length) parts.push(`include:${f.include.join(',')}`);
  if (f.order) parts.push(`order:${f.order}`);
  return parts.join(' ');
}

export const credsCommand: CommandHandler<'creds', CredentialsDeps> = {
  progress: () => 'Searching leaked credentials…',
  async run(ctx) {
    const { deps, command } = ctx;
    const input = toCredentialSearchInput(command, new Date(deps.clock.now()));
    const { ctx: page, ctxId } = await deps.credentials.search({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      channelId: ctx.channelId,
      commandText: credsCommandText(command),
      input,
      ...(command.filters.limit === undefined ? {} : { limit: command.filters.limit }),
    });
    await ctx.respond(ephemeral(await credsPage(deps, page, ctxId), true));
  },
};

/** No progress text: the trigger id lives 3 s, so the modal opens before anything else. */
export const credsPasswordModalCommand: CommandHandler<'creds-password-modal', CredentialsDeps> = {
  async run(ctx) {
    await openPasswordModal(ctx.client, ctx.triggerId, ctx.channelId);
  },
};
