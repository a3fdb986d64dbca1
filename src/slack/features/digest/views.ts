/**
 * The `digest add` form: opened at once (the trigger id lives 3 s), checked on submit (a channel Vigil
 * cannot post in is refused beside the field), then created, and confirmed where the person opened it.
 */
import type { App, ViewOutput } from '@slack/bolt';
import { isEventFilterType, SEVERITIES, type Severity } from '../../../api/index.js';
import { KnownTags } from '../../../services/known-tags.js';
import { channelFieldError } from '../../blocks/channel.js';
import { DIGEST_ADD_VIEW, DIGEST_TAG_FIELDS, renderDigestAddModal } from '../../blocks/digest.js';
import { readTags } from '../../blocks/tags.js';
import { checkChannelWithin } from '../../channels.js';
import type { CommandHandler, SlackDeps } from '../../context.js';
import { onView } from '../../listen.js';
import { canonicalTimeZone } from '../../parser/index.js';
import { ephemeralPoster } from '../../respond.js';
import { type AddInput, addDigest } from './commands.js';

export const digestAddModalCommand: CommandHandler<'digest-add-modal'> = {
  async run(ctx) {
    // Two local reads (the tenant, its known tags) before the trigger id's 3 seconds run out; a workspace
    // that is not connected still gets the form (creating the digest says so).
    const tenant = await ctx.deps.api
      .forWorkspace(ctx.workspaceId)
      .then((api) => api.session.tenantId)
      .catch(() => undefined);
    const known = await new KnownTags(ctx.deps.repos).list(ctx.workspaceId, tenant);
    await ctx.client.views.open({
      trigger_id: ctx.triggerId,
      view: renderDigestAddModal(ctx.channelId, known),
    });
  },
};

interface Field {
  value?: string | null;
  selected_conversation?: string | null;
  selected_option?: { value?: string } | null;
  selected_time?: string | null;
  selected_options?: { value?: string }[] | null;
}

/** The form's values, or the errors to show beside its fields. */
export function readForm(view: ViewOutput): { input: AddInput } | { errors: Record<string, string> } {
  const values = view.state.values as Record<string, Record<string, Field>>;
  const field = (block: string): Field => values[block]?.value ?? {};
  const errors: Record<string, string> = {};

  const channelId = field('channel').selected_conversation ?? '';
  if (channelId === '') errors.channel = 'Pick the channel the digest posts in.';

  const idsText = (field('identifiers').value ?? '').trim();
  let identifierIds: number[] | 'all' = 'all';
  if (idsText !== '' && idsText.toLowerCase() !== 'all') {
    const parts = idsText.split(/[\s,]+/).filter((p) => p !== '');
    if (parts.some((p) => !/^[1-9]\d{0,15}$/.test(p))) {
      errors.identifiers =
        'Identifier ids are whole numbers, separated by commas (or leave it empty for all).';
    } else identifierIds = [...new Set(parts.map(Number))];
  }

  const severityValue = field('severity').selected_option?.value ?? 'info';
  const severity: Severity = (SEVERITIES as readonly string[]).includes(severityValue)
    ? (severityValue as Severity)
    : 'info';

  const typesText = (field('types').value ?? '').trim();
  const types =
    typesText === '' || typesText.toLowerCase() === 'all' ? [] : typesText.split(/[\s,]+/).filter((t) => t);
  const unknown = types.filter((t) => !isEventFilterType(t.toLowerCase()));
  if (unknown.length > 0)
    errors.types = `Not event types: ${unknown.join(', ')}. Try leak, paste, forum_content…`;

  const tagged = readTags(values as never, DIGEST_TAG_FIELDS);
  if (tagged.error) errors[DIGEST_TAG_FIELDS.added] = tagged.error;
  else if (tagged.tags.length > 20) errors[DIGEST_TAG_FIELDS.added] = 'A digest filters on at most 20 tags.';

  const timeOfDay = field('time').selected_time ?? '09:00';
  const tzText = (field('tz').value ?? '').trim();
  const timeZone = tzText === '' ? undefined : canonicalTimeZone(tzText);
  if (tzText !== '' && timeZone === undefined)
    errors.tz = 'Use an IANA name such as Europe/Paris or America/New_York.';

  const options = (field('options').selected_options ?? []).map((o) => o.value);
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      channelId,
      identifierIds,
      severity,
      types: types.map((t) => t.toLowerCase()),
      ...(tagged.tags.length > 0 ? { tags: tagged.tags } : {}),
      timeOfDay,
      timeZone,
      weekdaysOnly: options.includes('weekdays'),
      skipEmpty: !options.includes('always'),
    },
  };
}

/** The channel the form was opened in (its private metadata), where the person is. */
function originOf(view: ViewOutput): string | undefined {
  const id = view.private_metadata;
  return /^[CGD][A-Z0-9]{2,30}$/.test(id) ? id : undefined;
}

export function registerDigestViews(app: App, deps: SlackDeps): void {
  onView(app, deps, DIGEST_ADD_VIEW, async ({ who, view, client }) => {
    const form = readForm(view);
    if ('errors' in form) return { ack: { response_action: 'errors', errors: form.errors } };
    // Refused beside the field, the form still open; a check without an answer in time is made again below.
    const check = await checkChannelWithin(client, form.input.channelId);
    if (check && !check.ok) {
      return { ack: { response_action: 'errors', errors: { channel: channelFieldError(check) } } };
    }
    const respond = ephemeralPoster(client, originOf(view) ?? form.input.channelId, who.userId);
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
