/**
 * `/vigil`: parse (pure), ack within Slack's 3 s with no network or disk wait, then run the subcommand's
 * handler in the background. Help and usage errors are answered in the ack itself.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import { onSurface } from '../kernel/audit-surface.js';
import type { WaitKind } from '../kernel/waiting-on.js';
import type { BoundHandler, CommandRequest, SlackBase } from './context.js';
import { renderUsageError } from './grammar/help-blocks.js';
import type { Command, Grammar, Subcommand } from './grammar/index.js';
import { runTracked } from './listen.js';
import { requesterOfCommand } from './requester.js';
import { stillWorking, waitingWords } from './still-working.js';

const VIGIL_COMMAND = '/vigil';

/** Help acks, built once per topic and frozen, so the receiver serializes each only once. */
function helpAcks(grammar: Grammar): (topic: Subcommand | undefined) => Readonly<Record<string, unknown>> {
  const acks = new Map<string, Readonly<Record<string, unknown>>>();
  return (topic) => {
    let ack = acks.get(topic ?? '');
    if (!ack) {
      ack = Object.freeze({ response_type: 'ephemeral', ...grammar.helpMessage(topic) });
      acks.set(topic ?? '', ack);
    }
    return ack;
  };
}

/** `/vigil`, parsed by the grammar of the bound features and run by their handlers. */
export function registerVigilCommand(
  app: App,
  deps: SlackBase,
  grammar: Grammar,
  handlers: Partial<Record<Command['kind'], BoundHandler>>,
): void {
  const helpAck = helpAcks(grammar);
  app.command(VIGIL_COMMAND, async ({ command, ack, respond, client }) => {
    const parsed = grammar.parse(command.text ?? '');
    if (!parsed.ok) {
      await ack({ response_type: 'ephemeral', ...renderUsageError(parsed.error) });
      return;
    }
    const cmd = parsed.command;
    if (cmd.kind === 'help') {
      await ack(helpAck(cmd.topic));
      return;
    }
    const handler = handlers[cmd.kind];
    if (!handler) {
      await ack({
        response_type: 'ephemeral',
        text: `\`/vigil ${cmd.kind.split('-')[0]}\` is not available in this version of Vigil yet. \`/vigil help\` lists what is.`,
      });
      return;
    }
    if (!deps.work.tracker.isAccepting) {
      await ack({ response_type: 'ephemeral', text: 'Vigil is restarting: try again in a few seconds.' });
      return;
    }
    const progress = handler.progress?.(cmd);
    await ack(progress ? { response_type: 'ephemeral', text: progress } : undefined);
    const requester = requesterOfCommand(command);
    const notice = progress ? stillWorking(deps.work.sleep, respond, stillWorkingNotice) : undefined;
    const replies = placeholderReplies(notice?.respond ?? respond, progress !== undefined);
    const request: CommandRequest = {
      ...requester,
      command: cmd,
      triggerId: command.trigger_id,
      responseUrl: command.response_url,
      respond: replies.respond,
      client,
    };
    const run = async () => {
      const work = async () => {
        await deps.authz.requireAccess(client, requester, grammar.accessOf(cmd.kind));
        await onSurface('command', () => handler.run(request));
      };
      try {
        await (notice ? notice.watch(work) : work());
      } finally {
        notice?.cancel();
      }
    };
    runTracked(deps, run, replies.error, {
      command: cmd.kind,
      team: requester.workspaceId,
      user: requester.userId,
    });
  });
}

/**
 * The progress text is replaced by the notice (a command's replies all go to its own response_url), worded
 * for what the command waits on when it fires.
 */
function stillWorkingNotice(waiting: WaitKind | undefined): RespondArguments {
  return {
    response_type: 'ephemeral',
    replace_original: true,
    text: `Still working: ${waitingWords(waiting)}. The result will replace this message.`,
  };
}

/**
 * The handler's replies, and the error reply: an error replaces the progress placeholder as a result
 * would, unless a reply already replaced it (an explanation's first part stays when a later one fails).
 */
function placeholderReplies(
  respond: RespondFn,
  placeholder: boolean,
): { respond: RespondFn; error: RespondFn } {
  let replaced = !placeholder;
  const tracked = ((message: string | RespondArguments) => {
    replaced = true;
    return respond(message);
  }) as RespondFn;
  const error = ((message: string | RespondArguments) => {
    if (replaced) return respond(message);
    replaced = true;
    const m = typeof message === 'string' ? { text: message } : message;
    return respond({ ...m, replace_original: true });
  }) as RespondFn;
  return { respond: tracked, error };
}
