/** What kind of request a parsed Slack body is, for metrics: one of a few fixed names, never an id. */
import type { RequestKind } from '../observability/metrics.js';

const INTERACTION_KINDS: Readonly<Record<string, RequestKind>> = {
  block_actions: 'action',
  interactive_message: 'action',
  view_submission: 'view',
  view_closed: 'view',
  block_suggestion: 'options',
  shortcut: 'shortcut',
  message_action: 'shortcut',
  event_callback: 'event',
};

export function requestKindOf(body: Record<string, unknown>): RequestKind {
  if (typeof body.command === 'string') return 'command';
  const type = body.type;
  return typeof type === 'string' && Object.hasOwn(INTERACTION_KINDS, type)
    ? (INTERACTION_KINDS[type] ?? 'other')
    : 'other';
}
