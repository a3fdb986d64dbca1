/**
 * Runs a `/vigil` command line as the person an MCP request names, through the very handlers the slash
 * command runs: the same parse, the same permission check before any API call (the grammar's access), the same
 * services with their fair gate, quota and masking, the same audit (surface `mcp`) and the same error
 * answers. Only the replies differ: they are collected for the tool result instead of posted.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { Block, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { onSurface } from '../../kernel/audit-surface.js';
import type { Logger } from '../../kernel/logger.js';
import type { WorkTracker } from '../../kernel/work-tracker.js';
import type { BoundHandler, Requester } from '../../slack/context.js';
import { reportError } from '../../slack/error-reply.js';
import { renderUsageError } from '../../slack/grammar/help-blocks.js';
import type { CommandKind, Grammar } from '../../slack/grammar/index.js';
import type { Access, Authz } from '../../slack/permission-checks.js';

type AnyBlock = KnownBlock | Block;

/** What a tool answers: text for the model, the command's Block Kit, and whether it failed. */
export interface ToolAnswer {
  messages: Array<{ text: string; blocks?: AnyBlock[] }>;
  isError: boolean;
}

export interface CommandRunnerDeps {
  logger: Logger;
  authz: Authz;
  tracker: WorkTracker;
  /** The `/vigil` subcommands' handlers, bound to their features' deps by the composition root. */
  handlers: Partial<Record<CommandKind, BoundHandler>>;
  /** The `/vigil` grammar of the same features. */
  grammar: Grammar;
}

/** The person, verified by Slack identity auth, and the bot client of their workspace. */
export interface McpCaller {
  teamId: string;
  userId: string;
  client: WebClient;
}

/**
 * Tells the client how far a call has come (MCP `notifications/progress`, when it sent a `progressToken`):
 * the permission checked, the API asked, each reply ready. Never fails the call.
 */
export type Progress = (message: string) => Promise<void>;

/** Replies as the command would post them: a reply that replaces the original replaces the last one. */
function collector(progress?: Progress): { respond: RespondFn; messages: ToolAnswer['messages'] } {
  const messages: ToolAnswer['messages'] = [];
  let replies = 0;
  const respond = (async (message: string | RespondArguments) => {
    const m = (typeof message === 'string' ? { text: message } : message) as {
      text?: unknown;
      blocks?: unknown;
      replace_original?: unknown;
    };
    const reply = {
      text: typeof m.text === 'string' ? m.text : '',
      ...(Array.isArray(m.blocks) ? { blocks: m.blocks as AnyBlock[] } : {}),
    };
    if (m.replace_original === true && messages.length > 0) messages[messages.length - 1] = reply;
    else messages.push(reply);
    replies += 1;
    await progress?.(replies === 1 ? 'The answer is ready' : `Reply ${replies} is ready`);
    // Nothing was posted: the caller reads the replies from `messages`.
    return {};
  }) as unknown as RespondFn;
  return { respond, messages };
}

/** What a tool runs as the person: after `access` is checked, with their replies collected. */
export interface PersonWork {
  /** Names the work in the log (a subcommand, or the tool). */
  kind: string;
  access: Access;
  run(request: Requester & { respond: RespondFn; client: WebClient }): Promise<void>;
}

/** Parses `line` as `/vigil` would and runs its subcommand's handler as `caller` (see runAsPerson). */
export async function runCommandLine(
  deps: CommandRunnerDeps,
  caller: McpCaller,
  line: string,
  dryRun?: string,
  progress?: Progress,
): Promise<ToolAnswer> {
  const parsed = deps.grammar.parse(line);
  if (!parsed.ok) return { messages: [renderUsageError(parsed.error)], isError: true };
  const command = parsed.command;
  const handler = command.kind === 'help' ? undefined : deps.handlers[command.kind];
  if (!handler) {
    return { messages: [{ text: 'This is not available in this version of Vigil.' }], isError: true };
  }
  const work: PersonWork = {
    kind: command.kind,
    access: deps.grammar.accessOf(command.kind),
    run: (request) => handler.run({ ...request, command, triggerId: '', responseUrl: '' }),
  };
  return runAsPerson(deps, caller, work, dryRun, progress);
}

/**
 * Runs `work` as `caller`, on the `mcp` surface and tracked like a command. With `dryRun`, stops after the
 * permission check and answers that text instead (an action asked without `confirm: true`): a person who may
 * not act learns it before agreeing to anything.
 */
export async function runAsPerson(
  deps: CommandRunnerDeps,
  caller: McpCaller,
  work: PersonWork,
  dryRun?: string,
  progress?: Progress,
): Promise<ToolAnswer> {
  if (!deps.tracker.isAccepting) {
    return { messages: [{ text: 'Vigil is restarting: try again in a few seconds.' }], isError: true };
  }
  const { respond, messages } = collector(progress);
  const request: Requester & { respond: RespondFn; client: WebClient } = {
    workspaceId: caller.teamId,
    teamId: caller.teamId,
    enterpriseId: undefined,
    userId: caller.userId,
    // No channel: the person's own id, where Slack delivers a direct message.
    channelId: caller.userId,
    respond,
    client: caller.client,
  };
  let failed = false;
  let dry = false;
  const run = async () => {
    try {
      await onSurface('mcp', async () => {
        await deps.authz.requireAccess(caller.client, request, work.access);
        await progress?.('Permission checked');
        if (dryRun !== undefined) {
          dry = true;
          return;
        }
        await progress?.('Asking the threat-intel API');
        await work.run(request);
      });
    } catch (err) {
      failed = true;
      await reportError(deps, err, respond, { mcp: work.kind, team: caller.teamId, user: caller.userId });
    }
  };
  // Tracked like a command's work, so shutdown waits for a call under way.
  await new Promise<void>((done) => {
    deps.tracker.run(
      () => run().finally(done),
      () => done(),
    );
  });
  if (dry && !failed) return { messages: [{ text: dryRun as string }], isError: false };
  return { messages, isError: failed };
}
