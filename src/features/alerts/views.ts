/**
 * The `alerts add` form: opened at once (the trigger id lives 3 s), checked on submit (a channel Vigil
 * cannot post in is refused beside the field), then created, and confirmed where the person opened it.
 */
import type { App, ViewOutput } from '@slack/bolt';
import { ALERT_ADD_VIEW, renderAlertAddModal } from '../../domain/subscriptions/alert-blocks.js';
import {
  type FormField,
  listField,
  onSubscriptionForm,
  readCommonFields,
} from '../../domain/subscriptions/slack.js';
import type { CommandHandler } from '../../slack/context.js';
import { type AlertAddInput, addAlerts } from './commands.js';
import type { AlertsDeps } from './deps.js';
import { ALERT_TYPES } from './grammar.js';

export const alertsAddModalCommand: CommandHandler<'alerts-add-modal', AlertsDeps> = {
  async run(ctx) {
    await ctx.client.views.open({ trigger_id: ctx.triggerId, view: renderAlertAddModal(ctx.channelId) });
  },
};

function quietOf(text: string): { from: string; to: string } | undefined | 'bad' {
  if (text.trim() === '' || text.trim().toLowerCase() === 'none') return undefined;
  const m = /^\s*(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return 'bad';
  const [h1, m1, h2, m2] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59) return 'bad';
  const pad = (h: number, min: number) => `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
  const range = { from: pad(h1, m1), to: pad(h2, m2) };
  return range.from === range.to ? 'bad' : range;
}

/** Who the form mentions: picked users (ids) and group handles, confirmed with Slack after the ack. */
function mentionOfForm(
  field: (block: string) => FormField & { selected_users?: string[] | null },
  errors: Record<string, string>,
): AlertAddInput['mention'] {
  const users = (field('mention_users').selected_users ?? []).filter((u) => /^[UW][A-Z0-9]{2,30}$/.test(u));
  const handles = (field('mention_groups').value ?? '').split(/[\s,]+/).filter((h) => h !== '');
  if (handles.some((h) => !/^@?[a-z0-9][a-z0-9._-]{0,79}$/i.test(h)))
    errors.mention_groups = 'Give user group handles like @secops, separated by commas.';
  if (handles.length > 5) errors.mention_groups = 'At most 5 user groups.';
  const on = field('mention_on').selected_option?.value === 'all' ? 'all' : 'critical';
  if (users.length + handles.length === 0) return undefined;
  return { users, groups: handles.map((h) => (h.startsWith('@') ? h : `@${h}`)), on };
}

/** The form's values, or the errors to show beside its fields. */
function readAlertForm(view: ViewOutput): { input: AlertAddInput } | { errors: Record<string, string> } {
  const common = readCommonFields(view, { severity: 'high', what: 'alerts', options: ['hold_all'] });
  const { field, errors } = common;
  const types = listField(field('types')).map((t) => t.toLowerCase());
  const unknown = types.filter((t) => !ALERT_TYPES.includes(t));
  if (unknown.length > 0 && errors.types === undefined)
    errors.types = `Not event type names: ${unknown.join(', ')}. Try stealer_log, leaked_credential, ransomleak…`;
  const quiet = quietOf(field('quiet').value ?? '');
  if (quiet === 'bad')
    errors.quiet = 'Give two different 24-hour times, like 22:00-07:00, or leave it empty.';
  const holdAll = (field('options').selected_options ?? []).some((o) => o.value === 'hold_all');
  const mention = mentionOfForm(field, errors);
  const askPerson = (field('ask_person').selected_options ?? []).some((o) => o.value === 'on');
  if (Object.keys(errors).length > 0 || quiet === 'bad') return { errors };
  return {
    input: {
      channelId: common.channelId,
      identifierIds: common.identifierIds,
      severity: common.severity,
      types: [...new Set(types)],
      hold: holdAll ? 'all' : 'noncritical',
      ...(quiet === undefined ? {} : { quiet }),
      ...(mention === undefined ? {} : { mention }),
      ...(askPerson ? { askPerson: true } : {}),
      timeZone: common.timeZone,
    },
  };
}

export function registerAlertViews(app: App, deps: AlertsDeps): void {
  onSubscriptionForm(app, deps, ALERT_ADD_VIEW, readAlertForm, addAlerts);
}
