/** The `digest add` form: opened at once (the trigger id lives 3 s), checked on submit, then created. */
import type { App, ViewOutput } from '@slack/bolt';
import { isEventFilterType } from '../../../api/index.js';
import { DIGEST_ADD_VIEW, renderDigestAddModal } from '../../blocks/digest.js';
import type { CommandHandler, SlackDeps } from '../../context.js';
import { onView } from '../../listen.js';
import { ephemeralPoster } from '../../respond.js';
import { listField, readCommonFields } from '../../subscriptions.js';
import { type AddInput, addDigest } from './commands.js';

export const digestAddModalCommand: CommandHandler<'digest-add-modal'> = {
  async run(ctx) {
    await ctx.client.views.open({ trigger_id: ctx.triggerId, view: renderDigestAddModal(ctx.channelId) });
  },
};

/** The form's values, or the errors to show beside its fields. */
export function readForm(view: ViewOutput): { input: AddInput } | { errors: Record<string, string> } {
  const common = readCommonFields(view, { severity: 'info', what: 'digest' });
  const { field, errors } = common;
  const types = listField(field('types'));
  const unknown = types.filter((t) => !isEventFilterType(t.toLowerCase()));
  if (unknown.length > 0)
    errors.types = `Not event types: ${unknown.join(', ')}. Try leak, paste, forum_content…`;
  const timeOfDay = field('time').selected_time ?? '09:00';
  const options = (field('options').selected_options ?? []).map((o) => o.value);
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      channelId: common.channelId,
      identifierIds: common.identifierIds,
      severity: common.severity,
      types: types.map((t) => t.toLowerCase()),
      timeOfDay,
      timeZone: common.timeZone,
      weekdaysOnly: options.includes('weekdays'),
      skipEmpty: !options.includes('always'),
    },
  };
}

export function registerDigestViews(app: App, deps: SlackDeps): void {
  onView(app, deps, DIGEST_ADD_VIEW, ({ who, view, client }) => {
    const form = readForm(view);
    if ('errors' in form) return { ack: { response_action: 'errors', errors: form.errors } };
    const respond = ephemeralPoster(client, form.input.channelId, who.userId);
    return {
      respond,
      async work() {
        const text = await addDigest(
          { deps, client, workspaceId: who.workspaceId, userId: who.userId },
          form.input,
        );
        await respond({ text });
      },
    };
  });
}
