/**
 * `/vigil`: parse (pure), ack within Slack's 3 s with no network or disk wait, then run the subcommand's
 * handler in the background. Help and usage errors are answered in the ack itself.
 */
import type { App } from '@slack/bolt';
import { helpMessage, renderUsageError } from './blocks/help.js';
import type { CommandContext, CommandHandler, CommandHandlers, SlackDeps } from './context.js';
import { requesterOfCommand, runTracked } from './listen.js';
import type { Command } from './parser/index.js';
import { parseCommand } from './parser/index.js';

export const VIGIL_COMMAND = '/vigil';

/** Help acks, built once per topic and frozen, so the receiver serializes each only once. */
const helpAcks = new Map<string, Readonly<Record<string, unknown>>>();
function helpAck(topic: Parameters<typeof helpMessage>[0]) {
  let ack = helpAcks.get(topic ?? '');
  if (!ack) {
    ack = Object.freeze({ response_type: 'ephemeral', ...helpMessage(topic) });
    helpAcks.set(topic ?? '', ack);
  }
  return ack;
}

export function registerVigilCommand(app: App, deps: SlackDeps, handlers: CommandHandlers): void {
  app.command(VIGIL_COMMAND, async ({ command, ack, respond, client }) => {
    const parsed = parseCommand(command.text ?? '');
    if (!parsed.ok) {
      await ack({ response_type: 'ephemeral', ...renderUsageError(parsed.error) });
      return;
    }
    const cmd = parsed.command;
    if (cmd.kind === 'help') {
      await ack(helpAck(cmd.topic));
      return;
    }
    const handler = handlers[cmd.kind] as CommandHandler | undefined;
    if (!handler) {
      await ack({
        response_type: 'ephemeral',
        text: `\`/vigil ${cmd.kind.split('-')[0]}\` is not available in this version of Vigil yet. \`/vigil help\` lists what is.`,
      });
      return;
    }
    if (!deps.tracker.isAccepting) {
      await ack({ response_type: 'ephemeral', text: 'Vigil is restarting: try again in a few seconds.' });
      return;
    }
    const progress = handler.progress?.(cmd as never);
    await ack(progress ? { response_type: 'ephemeral', text: progress } : undefined);
    const requester = requesterOfCommand(command);
    const ctx: CommandContext = {
      ...requester,
      command: cmd as Extract<Command, { kind: typeof cmd.kind }>,
      triggerId: command.trigger_id,
      responseUrl: command.response_url,
      respond,
      client,
      deps,
    };
    runTracked(deps, () => handler.run(ctx as never), respond, {
      command: cmd.kind,
      team: requester.workspaceId,
      user: requester.userId,
    });
  });
}
