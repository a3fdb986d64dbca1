/**
 * The `digest add` form: opened at once (the trigger id lives 3 s), checked on submit (a channel Vigil
 * cannot post in is refused beside the field), then created, and confirmed where the person opened it.
 */
import type { App, ViewOutput } from '@slack/bolt';
import { isEventFilterType } from '../../api/index.js';
import { readTags } from '../../domain/events/tags.js';
import {
  DIGEST_ADD_VIEW,
  DIGEST_TAG_FIELDS,
  renderDigestAddModal,
} from '../../domain/subscriptions/digest-blocks.js';
import { listField, onSubscriptionForm, readCommonFields } from '../../domain/subscriptions/slack.js';
import type { CommandHandler } from '../../slack/context.js';
import { type AddInput, addDigest } from './commands.js';
import type { DigestsDeps } from './deps.js';

export const digestAddModalCommand: CommandHandler<'digest-add-modal', DigestsDeps> = {
  async run(ctx) {
    // Two local reads (the tenant, its known tags) before the trigger id's 3 seconds run out; a workspace
    // that is not connected still gets the form (creating the digest says so).
    const tenant = await ctx.deps.connection.tenantOf(ctx.workspaceId).catch(() => undefined);
    const known = await ctx.deps.knownTags.list(ctx.workspaceId, tenant);
    await ctx.client.views.open({
      trigger_id: ctx.triggerId,
      view: renderDigestAddModal(ctx.channelId, known),
    });
  },
};

/** The form's values, or the errors to show beside its fields. */
function readForm(view: ViewOutput): { input: AddInput } | { errors: Record<string, string> } {
  const common = readCommonFields(view, {
    severity: 'info',
    what: 'digest',
    options: ['weekdays', 'always'],
  });
  const { field, errors } = common;
  const types = listField(field('types'));
  const unknown = types.filter((t) => !isEventFilterType(t.toLowerCase()));
  if (unknown.length > 0 && errors.types === undefined)
    errors.types = `Not event types: ${unknown.join(', ')}. Try leak, paste, forum_content…`;
  const tagged = readTags(view.state.values as never, DIGEST_TAG_FIELDS);
  if (tagged.error) errors[DIGEST_TAG_FIELDS.added] = tagged.error;
  else if (tagged.tags.length > 20) errors[DIGEST_TAG_FIELDS.added] = 'A digest filters on at most 20 tags.';
  const timeOfDay = field('time').selected_time ?? '09:00';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(timeOfDay)) errors.time = 'Pick a time of day.';
  const options = (field('options').selected_options ?? []).map((o) => o.value);
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      channelId: common.channelId,
      identifierIds: common.identifierIds,
      severity: common.severity,
      types: types.map((t) => t.toLowerCase()),
      ...(tagged.tags.length > 0 ? { tags: tagged.tags } : {}),
      timeOfDay,
      timeZone: common.timeZone,
      weekdaysOnly: options.includes('weekdays'),
      skipEmpty: !options.includes('always'),
    },
  };
}

export function registerDigestViews(app: App, deps: DigestsDeps): void {
  onSubscriptionForm(app, deps, DIGEST_ADD_VIEW, readForm, addDigest);
}
