/**
 * Answering a `/vigil` command in the DM: the same handler the slash command runs, behind the same permission
 * check, audited on the `agent` surface, with the same per-person gate and quota inside the services; its replies
 * are caught and become the stream's last part (the same Block Kit, buttons included). The plan is streamed
 * first, before any API call, and each task is updated as the work reaches it.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { Block, KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { onSurface } from '../../kernel/audit-surface.js';
import { realSleep } from '../../kernel/clock.js';
import type { CommandRequest, Requester } from '../../slack/context.js';
import { answerFor, reportError } from '../../slack/error-reply.js';
import type { Command } from '../../slack/grammar/index.js';
import { truncate } from '../../slack/kit/text.js';
import type { AgentDeps } from './deps.js';
import { planFor, TASK } from './plan.js';
import { AnswerStream } from './stream.js';
import { mdCode } from './text.js';

/** After this long without the API's answer, the running task says so (the command's "still working"). */
const STILL_WORKING_MS = 5_000;

/** A verified message in the DM, and where its answer goes. */
export interface Asked {
  requester: Requester;
  /** The thread the answer streams into: the message's own ts, or the thread it was sent in. */
  threadTs: string;
  client: WebClient;
}

interface Caught {
  text: string;
  blocks: (KnownBlock | Block)[];
}

/** A `respond` that keeps the handler's messages in order, replacing and deleting as response_url would. */
export function catchReplies(): { respond: RespondFn; messages: Caught[] } {
  const messages: Caught[] = [];
  const respond = (async (message: string | RespondArguments) => {
    const m: RespondArguments = typeof message === 'string' ? { text: message } : message;
    if (m.delete_original) {
      messages.pop();
      return;
    }
    const text = m.text ?? '';
    const blocks = (m as { blocks?: (KnownBlock | Block)[] }).blocks ?? [
      { type: 'section', text: { type: 'mrkdwn', text: truncate(text || ' ', 3000) } },
    ];
    const caught = { text: text || 'Vigil', blocks };
    if (m.replace_original && messages.length > 0) messages[messages.length - 1] = caught;
    else messages.push(caught);
  }) as unknown as RespondFn;
  return { respond, messages };
}

/** The stream for an answer in the asker's thread. */
export function streamFor(deps: AgentDeps, asked: Asked): AnswerStream {
  return new AnswerStream(asked.client, deps.logger, {
    channel: asked.requester.channelId,
    threadTs: asked.threadTs,
  });
}

/** Tells the running task, once, that the API is slow; stops when the work answers. */
function stillWorking(deps: AgentDeps, stream: AnswerStream): () => void {
  const stop = new AbortController();
  (deps.work.sleep ?? realSleep)(STILL_WORKING_MS, stop.signal).then(
    () => {
      if (!stop.signal.aborted)
        void stream.update(TASK.api, 'in_progress', 'Still working: the threat-intel API is slow to answer');
    },
    () => {},
  );
  return () => stop.abort();
}

/** Runs `command` as the asker would by `/vigil`, streaming the plan, each step, and the result. */
export async function answerCommand(
  deps: AgentDeps,
  asked: Asked,
  command: Command,
  said: { text: string; via: 'grammar' | 'plain' },
): Promise<void> {
  const stream = streamFor(deps, asked);
  const handler = deps.commands()[command.kind];
  if (!deps.grammar.answeredInMessages(command.kind) || handler === undefined) {
    await stream.start(
      'Not something to answer here',
      [],
      `${mdCode(`/vigil ${said.text}`)} works as a slash command only.`,
    );
    await stream.stop({
      text: 'Use it as a slash command.',
      markdown:
        'It opens a form or changes Vigil’s setup: type it after `/vigil` in any channel or in this DM.',
    });
    return;
  }
  const plan = planFor(command);
  const intro = said.via === 'plain' ? `I read that as ${mdCode(`/vigil ${said.text}`)}.` : undefined;
  await stream.start(plan.title, plan.tasks, intro);
  const replies = catchReplies();
  const context = {
    command: command.kind,
    surface: 'agent',
    team: asked.requester.workspaceId,
    user: asked.requester.userId,
  };
  let failedAt: string | undefined;
  try {
    await stream.update(TASK.access, 'in_progress');
    // Refusals are audited too: on the agent surface, like everything this answer does.
    await onSurface('agent', () =>
      deps.authz.requireAccess(asked.client, asked.requester, deps.grammar.accessOf(command.kind)),
    );
    await stream.update(TASK.access, 'complete');
    await stream.update(TASK.api, 'in_progress');
    const request: CommandRequest = {
      ...asked.requester,
      command,
      // A DM message has no trigger or response_url: the kinds that need one are not run here (each spec's `inMessages`).
      triggerId: '',
      responseUrl: '',
      respond: replies.respond,
      client: asked.client,
    };
    const done = stillWorking(deps, stream);
    failedAt = TASK.api;
    try {
      await onSurface('agent', () => handler.run(request));
    } finally {
      done();
    }
    failedAt = undefined;
    await stream.update(TASK.api, 'complete');
  } catch (err) {
    failedAt ??= TASK.access;
    await stream.update(failedAt, 'error', answerFor(err) ? 'Refused' : 'Failed');
    await reportError(deps, err, replies.respond, context);
  }
  await finish(stream, asked, replies.messages, failedAt === undefined);
}

/** The first reply ends the stream; any others follow in the thread, in order. */
async function finish(
  stream: AnswerStream,
  asked: Asked,
  messages: readonly Caught[],
  ok: boolean,
): Promise<void> {
  const [first, ...rest] = messages;
  if (ok) await stream.update(TASK.answer, first === undefined ? 'error' : 'complete');
  await stream.stop(
    first ?? { text: 'Vigil had nothing to answer.', markdown: 'Vigil had nothing to answer.' },
  );
  for (const m of rest) {
    await asked.client.chat.postMessage({
      channel: asked.requester.channelId,
      thread_ts: asked.threadTs,
      text: m.text,
      blocks: m.blocks,
    });
  }
}
