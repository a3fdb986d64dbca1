/**
 * Vigil's own agent DM (the Agent messaging experience, https://docs.slack.dev/ai/migrating-to-agent-messaging/):
 * opening the DM (`app_home_opened` with tab `messages`) sets prompts built from the workspace's identifiers;
 * each message in it is answered in its thread as a stream; `app_context_changed` says which message the person
 * is looking at, for "that one". Vigil has no language model: see read.ts.
 */
import type { App, RespondArguments, RespondFn } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Feature, Requester } from '../../slack/context.js';
import { renderUsageError } from '../../slack/grammar/help-blocks.js';
import { detectSecret } from '../../slack/grammar/index.js';
import { runTracked } from '../../slack/listen.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import { type Asked, answerCommand, streamFor } from './answer.js';
import { LookingAtMemory, messageOfContext } from './context.js';
import type { AgentDeps } from './deps.js';
import {
  capabilitiesBlocks,
  capabilitiesMarkdown,
  GENERIC_PROMPTS,
  type Prompt,
  promptsFor,
} from './prompts.js';
import { readRequest } from './read.js';
import { actOnThat, explainThat } from './that-one.js';

/** The prompts a person may be shown: the workspace's identifiers only to someone Vigil is open to. */
async function promptsOf(deps: AgentDeps, client: WebClient, who: Requester): Promise<readonly Prompt[]> {
  if (!(await deps.authz.may(client, who, 'use'))) return GENERIC_PROMPTS;
  try {
    const list = await deps.identifiers.list(who.workspaceId);
    return promptsFor(list.identifiers);
  } catch {
    // Not connected, or the API is down: prompts that work anyway (status says why).
    return GENERIC_PROMPTS;
  }
}

/** What Vigil can do, with prompts to try; `opening` says why it is told. */
async function capabilities(deps: AgentDeps, asked: Asked, opening: string): Promise<void> {
  const stream = streamFor(deps, asked);
  await stream.start('What I can do', [], opening);
  const prompts = await promptsOf(deps, asked.client, asked.requester);
  await stream.stop({
    text: 'What Vigil can do',
    markdown: capabilitiesMarkdown(prompts, ''),
    blocks: capabilitiesBlocks(prompts),
  });
}

async function usage(
  deps: AgentDeps,
  asked: Asked,
  message: ReturnType<typeof renderUsageError>,
): Promise<void> {
  const stream = streamFor(deps, asked);
  await stream.start('Reading your command', [], 'That reads as a `/vigil` command, but it does not parse:');
  await stream.stop(message);
}

interface DmMessage {
  text: string;
  ts: string;
  threadTs: string | undefined;
}

async function answer(
  deps: AgentDeps,
  asked: Asked,
  message: DmMessage,
  that: Parameters<typeof actOnThat>[2],
) {
  // A secret typed here is neither read nor repeated: the grammar refuses one in a command alike.
  if (detectSecret(message.text) !== undefined) {
    const stream = streamFor(deps, asked);
    await stream.start('Not reading that', []);
    const words =
      'That message looks like it holds a secret (a password or a key). Vigil neither reads nor repeats secrets in messages: delete it, and change the secret if it is real.';
    await stream.stop({ text: words, markdown: words });
    return;
  }
  const reading = readRequest(deps.grammar, message.text);
  switch (reading.kind) {
    case 'command':
      return answerCommand(deps, asked, reading.command, reading);
    case 'act-on-that':
      return actOnThat(deps, asked, that, reading.action);
    case 'explain-that':
      return explainThat(deps, asked, that);
    case 'usage':
      return usage(deps, asked, renderUsageError(reading.error));
    case 'help':
      return capabilities(deps, asked, 'Here is what I can do.');
    case 'not-understood':
      return capabilities(deps, asked, 'I did not understand that, so I did nothing.');
  }
}

interface MessageEvent {
  channel: string;
  channel_type?: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  subtype?: string;
  bot_id?: string;
}

function requesterOf(body: unknown, event: { user: string; channel: string }): Requester {
  const b = body as EnvelopeIds & { team_id?: string; enterprise_id?: string };
  return {
    workspaceId: workspaceOfEnvelope(b),
    teamId: b.team_id ?? '',
    enterpriseId: b.enterprise_id || undefined,
    userId: event.user,
    channelId: event.channel,
  };
}

function registerMessages(app: App, deps: AgentDeps, looking: LookingAtMemory): void {
  app.event('message', async ({ event, body, client, context }) => {
    const m = event as unknown as MessageEvent;
    // A person's own message in the DM; edits, bots (Vigil itself) and Slack's retries are not new requests.
    if (m.channel_type !== 'im' || m.subtype !== undefined || m.bot_id !== undefined || m.user === undefined)
      return;
    if (context.retryNum !== undefined) return;
    const requester = requesterOf(body, { user: m.user, channel: m.channel });
    // Each message is its own request: the answer streams in its thread (the agent experience's model).
    const asked: Asked = { requester, threadTs: m.thread_ts ?? m.ts, client };
    const that = {
      thread: m.thread_ts,
      lookingAt: looking.get(requester.workspaceId, requester.userId),
      botUserId: context.botUserId,
      appId: (body as { api_app_id?: string }).api_app_id,
    };
    const message = { text: m.text ?? '', ts: m.ts, threadTs: m.thread_ts };
    // A failure of the answer itself is told in the thread, with its reference (error-reply.ts).
    const fallback = (async (reply: string | RespondArguments) => {
      const r = typeof reply === 'string' ? { text: reply } : reply;
      const blocks = (r as { blocks?: KnownBlock[] }).blocks;
      await client.chat.postMessage({
        channel: m.channel,
        thread_ts: asked.threadTs,
        text: r.text ?? 'Vigil could not answer.',
        ...(blocks ? { blocks } : {}),
      });
    }) as unknown as RespondFn;
    runTracked(deps, () => answer(deps, asked, message, that), fallback, {
      surface: 'agent',
      team: requester.workspaceId,
      user: requester.userId,
    });
  });
}

function registerOpening(app: App, deps: AgentDeps, looking: LookingAtMemory): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'messages' || !event.channel) return;
    const who = requesterOf(body, { user: event.user, channel: event.channel });
    runTracked(
      deps,
      async () => {
        const prompts = await promptsOf(deps, client, who);
        // No thread_ts: for an agent_view app it makes the call silently fail (the method's usage info).
        await client.assistant.threads.setSuggestedPrompts({
          channel_id: event.channel,
          title: 'Ask Vigil',
          prompts: [...prompts],
        } as Parameters<typeof client.assistant.threads.setSuggestedPrompts>[0]);
      },
      undefined,
      { event: 'app_home_opened', tab: 'messages', team: who.workspaceId },
    );
  });

  app.event('app_context_changed', async ({ event, body }) => {
    const e = event as { user?: string; context?: unknown };
    // @slack/types gives the event a `user`; the reference page's example names the person only in the
    // envelope's (non-bot) authorization (https://docs.slack.dev/reference/events/app_context_changed).
    const auth = (body as { authorizations?: { user_id?: string; is_bot?: boolean }[] }).authorizations?.[0];
    const user = e.user ?? (auth?.is_bot === false ? auth.user_id : undefined);
    if (typeof user !== 'string') return;
    looking.set(workspaceOfEnvelope(body as EnvelopeIds), user, messageOfContext(e.context));
  });
}

export const agentFeature: Feature<AgentDeps> = {
  commands: {},
  register(app, deps) {
    const looking = new LookingAtMemory();
    registerOpening(app, deps, looking);
    registerMessages(app, deps, looking);
  },
};
