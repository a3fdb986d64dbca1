/**
 * The digest form: opened at once (the trigger id lives 3 s), empty for `digest add`, filled with a digest's
 * settings for `digest edit <id>`; checked on submit (a channel Vigil cannot post in is refused beside the
 * field), then created or changed, and confirmed where the person opened it.
 */
import type { App, ViewOutput } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { isEventFilterType } from '../../api/index.js';
import { readTags } from '../../domain/events/tags.js';
import { DIGEST_EDIT } from '../../domain/subscriptions/digest-blocks.js';
import { listField, onSubscriptionForm, readCommonFields } from '../../domain/subscriptions/slack.js';
import type { CommandHandler, Requester } from '../../slack/context.js';
import { onAction } from '../../slack/listen.js';

import { type AddInput, addDigest, editDigest } from './commands.js';
import type { DigestsDeps } from './deps.js';
import {
  DIGEST_ADD_VIEW,
  DIGEST_EDIT_VIEW,
  DIGEST_TAG_FIELDS,
  EDITED_BLOCK_PREFIX,
  renderDigestAddModal,
  renderDigestEditModal,
  WEEKDAY_VALUES,
} from './form-blocks.js';

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

/** The edit form of a digest, for its creator or an admin (checked again on save). */
async function openEditForm(
  deps: DigestsDeps,
  client: WebClient,
  who: Requester,
  form: { triggerId: string; subscriptionId: string; channelId?: string | undefined },
): Promise<void> {
  const sub = await deps.digests.get(who.workspaceId, form.subscriptionId);
  // Only its creator or an admin changes a digest: refused before the form, and checked again on save.
  if (sub.createdBy !== who.userId)
    await deps.authz.requireAdmin(client, who, 'change a digest someone else created');
  const tenant = await deps.connection.tenantOf(who.workspaceId).catch(() => undefined);
  const known = await deps.knownTags.list(who.workspaceId, tenant);
  await client.views.open({
    trigger_id: form.triggerId,
    view: renderDigestEditModal(sub, form.channelId ?? sub.channelId, known),
  });
}

export const digestEditCommand: CommandHandler<'digest-edit', DigestsDeps> = {
  run: (ctx) =>
    openEditForm(ctx.deps, ctx.client, ctx, {
      triggerId: ctx.triggerId,
      subscriptionId: ctx.command.subscriptionId,
      channelId: ctx.channelId,
    }),
};

/** "How often": daily (no weekday) or weekly on a weekday (1 Monday … 7 Sunday), as `every:week day:…`. */
function readCadence(value: string | undefined): { weekday: number | undefined } | undefined {
  // A form opened before the menu existed submits none: daily, as it was.
  if (value === undefined || value === 'day') return { weekday: undefined };
  const i = (WEEKDAY_VALUES as readonly string[]).indexOf(value);
  return i < 0 ? undefined : { weekday: i + 1 };
}

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
  const cadence = readCadence(field('cadence').selected_option?.value);
  if (cadence === undefined) errors.cadence = 'Pick how often from the list.';
  // The command's rule (`every:week weekdays` is refused): a weekly digest posts on its day.
  else if (cadence.weekday !== undefined && options.includes('weekdays') && errors.options === undefined)
    errors.options = '“Weekdays only” is for a daily digest; a weekly one posts on its day.';
  if (Object.keys(errors).length > 0 || cadence === undefined) return { errors };
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
      ...(cadence.weekday === undefined ? {} : { weekday: cadence.weekday }),
      skipEmpty: !options.includes('always'),
    },
  };
}

type ViewBlock = { block_id?: string; element?: { initial_conversation?: string } };

/**
 * The edit form's values and the digest it changes (its id in the first block's id, as the form was opened);
 * another channel than the digest's is refused beside the field.
 */
function readEditForm(
  view: ViewOutput,
): { input: AddInput & { subscriptionId: string } } | { errors: Record<string, string> } {
  const blocks = (view.blocks ?? []) as ViewBlock[];
  const edited = blocks.find((b) => b.block_id?.startsWith(EDITED_BLOCK_PREFIX))?.block_id;
  const channel = blocks.find((b) => b.block_id === 'channel')?.element?.initial_conversation;
  const form = readForm(view);
  if (edited === undefined || channel === undefined)
    return { errors: { channel: 'This form is not one Vigil opened: close it and run the command again.' } };
  if ('input' in form && form.input.channelId !== channel)
    return {
      errors: {
        channel:
          'A digest stays in the channel it posts in (its history is there): add a digest in the other channel instead.',
      },
    };
  if ('errors' in form) return form;
  return { input: { ...form.input, subscriptionId: edited.slice(EDITED_BLOCK_PREFIX.length) } };
}

export function registerDigestViews(app: App, deps: DigestsDeps): void {
  onSubscriptionForm(app, deps, DIGEST_ADD_VIEW, readForm, addDigest);
  onSubscriptionForm(app, deps, DIGEST_EDIT_VIEW, readEditForm, editDigest);
  // App Home's Edit on a digest row: the same form, confirmed in the digest's channel.
  onAction(
    app,
    deps,
    DIGEST_EDIT,
    ({ who, body, client, action }) =>
      openEditForm(deps, client, who, { triggerId: body.trigger_id, subscriptionId: action.value ?? '' }),
    { quiet: true, inDm: true, access: 'subscribe' },
  );
}
