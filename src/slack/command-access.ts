/**
 * Who may run each `/vigil` subcommand, checked before its handler does anything (so a refusal makes no API
 * call). Every kind is listed: a new subcommand does not compile until someone decides who may run it.
 */
import type { CommandKind } from './grammar/index.js';
import type { Access } from './permission-checks.js';

export const COMMAND_ACCESS: Readonly<Record<CommandKind, Access>> = Object.freeze({
  // Answered in the ack with no lookup: the same text for everyone, guests included.
  help: 'member',
  status: 'member',
  settings: 'member',
  events: 'use',
  'events-all': 'use',
  'events-name': 'use',
  'events-secret-modal': 'use',
  'events-secret-name': 'use',
  explain: 'use',
  identifiers: 'use',
  policies: 'use',
  assignments: 'use',
  recommendations: 'use',
  report: 'use',
  intel: 'intel',
  'identifiers-add': 'watch',
  'identifiers-remove': 'watch',
  'identifiers-disable': 'watch',
  'identifiers-enable': 'watch',
  tenants: 'use',
  upload: 'sandbox',
  'digest-list': 'use',
  'alerts-list': 'use',
  creds: 'creds',
  'creds-password-modal': 'creds',
  'digest-add': 'subscribe',
  'digest-add-modal': 'subscribe',
  'digest-edit': 'subscribe',
  'digest-remove': 'subscribe',
  'digest-preview': 'subscribe',
  'alerts-add': 'subscribe',
  'alerts-add-modal': 'subscribe',
  'alerts-remove': 'subscribe',
  'alerts-pause': 'subscribe',
  'alerts-resume': 'subscribe',
  // Seeing what is snoozed is using Vigil; snoozing and ending a snooze act on events.
  snoozes: 'use',
  snooze: 'act',
  'snoozes-end': 'act',
  audit: 'admin',
  'audit-export': 'admin',
  connect: 'admin',
  disconnect: 'admin',
  tenant: 'admin',
  'settings-actors': 'admin',
  'settings-admins': 'admin',
  'settings-cards': 'admin',
  'settings-contain-approval': 'admin',
  // Status says which provider and which permissions, no secret: what any holder of `contain` may see.
  'idp-status': 'contain',
  'idp-connect': 'admin',
  'idp-disconnect': 'admin',
});
