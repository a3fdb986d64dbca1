/**
 * Ask the affected person: the member's three answers in their DM. Only the member asked may answer (any
 * other clicker is told so); the DM then shows the answer without its buttons, and the alert's thread gets
 * the reply (service.ts). Sending and escalating run in the background (app/background.ts).
 */
import type { App } from '@slack/bolt';
import type { Feature, SlackBase } from '../../slack/context.js';
import { onAction } from '../../slack/listen.js';
import { ANSWER_ACTIONS } from './blocks.js';
import type { AnswerKind } from './model.js';
import type { AnswerResult } from './service.js';

export interface AskPersonDeps extends SlackBase {
  askPerson: {
    answer(input: {
      workspaceId: string;
      userId: string;
      id: string;
      kind: AnswerKind;
    }): Promise<AnswerResult>;
  };
}

function registerAnswers(app: App, deps: AskPersonDeps): void {
  for (const [kind, actionId] of Object.entries(ANSWER_ACTIONS) as [AnswerKind, string][]) {
    onAction(
      app,
      deps,
      actionId,
      async ({ who, action, body, client, respond }) => {
        const result = await deps.askPerson.answer({
          workspaceId: who.workspaceId,
          userId: who.userId,
          id: action.value ?? '',
          kind,
        });
        if ('refusal' in result) {
          await respond({ response_type: 'ephemeral', replace_original: false, text: result.refusal });
          return;
        }
        const channel = body.container?.channel_id ?? body.channel?.id;
        const ts = body.container?.message_ts ?? body.message?.ts;
        if (channel === undefined || ts === undefined) return;
        await client.chat.update({ channel, ts, text: result.message.text, blocks: result.message.blocks });
      },
      // The member asked is a full member (guests are never asked); the service checks it is them.
      { access: 'member', quiet: true, inDm: true },
    );
  }
}

export const askPersonFeature: Feature<AskPersonDeps> = { commands: {}, register: registerAnswers };
