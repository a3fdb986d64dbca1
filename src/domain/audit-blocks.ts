/**
 * The audit log in words: "<@alice> ignored “Combo list…” `leak/x/1`", one line per action, a bulk action
 * with its count. Ids and the customer's own names are verbatim in code spans; other upstream text escaped.
 */
import { PERMISSION_WORDS, PERMISSIONS, type Permission } from '../kernel/permission-rules.js';
import { slackDate } from '../slack/kit/dates.js';
import { plural } from '../slack/kit/kit.js';
import { codeSpan, escapeMrkdwn, truncate, userMention } from '../slack/kit/text.js';
import type { AuditEntry } from '../store/index.js';

const EVENT_VERBS: Readonly<Record<string, string>> = {
  'event.ignore': 'ignored',
  'event.remediate': 'remediated',
  'event.unignore': 'unignored',
  'event.unremediate': 'unremediated',
};

const escaped = (s: string, max = 200) => truncate(escapeMrkdwn(s).replace(/\s+/g, ' ').trim(), max);

function eventWords(e: AuditEntry, verb: string): string {
  const count = e.count ?? 1;
  const bulk = e.detail?.startsWith('ignore all on page') === true;
  const undo = e.detail?.startsWith('undo') === true;
  const what =
    count > 1
      ? plural(count, 'event')
      : e.title
        ? `“${escaped(e.title, 150)}” ${codeSpan(e.target)}`
        : `event ${codeSpan(e.target)}`;
  const how = bulk ? ' (Ignore all on this page)' : undo ? ' (Undo)' : '';
  return `${verb} ${what}${how}`;
}

/** An event by its title and uid, as the log names it. */
function eventNamed(e: AuditEntry): string {
  return e.title ? `“${escaped(e.title, 150)}” ${codeSpan(e.target)}` : `event ${codeSpan(e.target)}`;
}

/** Tags, a note, a severity override, set through an event's menu. */
function triageWords(e: AuditEntry): string | undefined {
  const detail = e.detail ?? '';
  switch (e.action) {
    case 'event.tags':
      return detail === ''
        ? `removed the tags of ${eventNamed(e)}`
        : `tagged ${eventNamed(e)} (${escaped(detail)})`;
    case 'event.notes':
      return detail === 'removed'
        ? `removed the note of ${eventNamed(e)}`
        : `added a note to ${eventNamed(e)}`;
    case 'event.severity':
      return detail.endsWith('override removed')
        ? `removed the severity override of ${eventNamed(e)} (${escaped(detail)})`
        : `re-rated ${eventNamed(e)} (${escaped(detail)})`;
    default:
      return undefined;
  }
}

/** Accept/Reject of identifier recommendations; the detail holds the recommended values. */
function recommendationWords(e: AuditEntry, verb: string): string {
  const count = e.count ?? 1;
  const what = count > 1 ? plural(count, 'recommendation') : `recommendation ${codeSpan(e.target)}`;
  return `${verb} ${what}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
}

/** Digest and alert subscriptions: what was done to which, and the channel of a new one. */
const SUBSCRIPTION_VERBS: Readonly<Record<string, string>> = {
  add: 'subscribed a channel to',
  edit: 'changed',
  remove: 'removed',
  pause: 'paused',
  resume: 'resumed',
};

function subscriptionWords(e: AuditEntry): string | undefined {
  const [kind, op] = e.action.split('.');
  const verb = op === undefined ? undefined : SUBSCRIPTION_VERBS[op];
  if ((kind !== 'digest' && kind !== 'alert') || verb === undefined) return undefined;
  const what = kind === 'digest' ? 'the daily digest' : 'real-time alerts';
  const channel = /^channel (C[A-Z0-9]{2,20})$/.exec(e.detail ?? '')?.[1];
  const where = channel === undefined ? '' : ` (<#${channel}>)`;
  return `${verb} ${what} ${codeSpan(e.target)}${where}`;
}

/** Leaked credentials: revealed, shared, exported (the target is `type:value` for an export). */
function credentialWords(e: AuditEntry): string | undefined {
  const detail = e.detail ? ` (${escaped(e.detail)})` : '';
  switch (e.action) {
    case 'credential.reveal':
      return `revealed the value of leaked credential ${codeSpan(e.target)}${detail}`;
    case 'credentials.share':
      return `shared leaked credentials (${escaped(e.target)} search, values masked) in a channel${detail}`;
    case 'credentials.export':
      return `exported leaked credentials of ${codeSpan(e.target)} as CSV${detail}`;
    case 'credential.remediate':
    case 'credential.unremediate':
    case 'credential.ignore':
    case 'credential.unignore': {
      const verb = `${e.action.slice('credential.'.length)}d`;
      const what =
        e.count === undefined ? `leaked credential ${codeSpan(e.target)}` : `${e.count} leaked credentials`;
      return `${verb} ${what}${detail}`;
    }
    case 'stealer-log.reveal':
      return `revealed a value of the stealer log of event ${codeSpan(e.target)}${detail}`;
    default:
      return undefined;
  }
}

/** " — failed", " — interrupted": how an action ended when it did not simply succeed. */
function outcomeWords(e: AuditEntry): string {
  return e.outcome === undefined || e.outcome === 'done' ? '' : ` — ${escaped(e.outcome, 40)}`;
}

const IDENTIFIER_VERBS: Readonly<Record<string, string>> = {
  'identifier.add': 'started watching',
  'identifier.remove': 'removed',
  'identifier.disable': 'disabled',
  'identifier.enable': 'enabled',
};

function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

/** What the entry says happened, in words, and how it ended when it did not simply succeed. */
function auditWords(e: AuditEntry): string {
  return `${actionWords(e)}${outcomeWords(e)}${workflowWords(e)}`;
}

/** " (via workflow run `Wx…`)": Slack names a step's run to the app, not its workflow. */
function workflowWords(e: AuditEntry): string {
  const run = /^via workflow ([A-Za-z0-9]{1,27})$/.exec(e.surface ?? '')?.[1];
  return run === undefined ? '' : ` (via workflow run ${codeSpan(run)})`;
}

function actionWords(e: AuditEntry): string {
  const verb = EVENT_VERBS[e.action];
  if (verb !== undefined) return eventWords(e, verb);
  const triage = triageWords(e);
  if (triage !== undefined) return triage;
  if (e.action === 'recommendation.accept') return recommendationWords(e, 'accepted');
  if (e.action === 'recommendation.reject') return recommendationWords(e, 'rejected');
  const subscription = subscriptionWords(e);
  if (subscription !== undefined) return subscription;
  const credential = credentialWords(e);
  if (credential !== undefined) return credential;
  switch (e.action) {
    case 'events.share':
      return `shared events of ${e.target === 'all' ? 'all identifiers' : `identifier ${codeSpan(e.target)}`}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'tenant.switch':
      return `switched tenant to ${codeSpan(e.target)}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'connection.connect':
      return `connected Vigil to tenant ${codeSpan(e.target)}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'connection.disconnect':
      return `disconnected Vigil${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'policy.unassign':
      return `unassigned from policy ${codeSpan(e.target)}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'sandbox.upload':
      return `uploaded ${codeSpan(e.target)} to the sandbox${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'audit.export':
      return `exported the audit log as CSV${e.detail ? ` (${escaped(e.detail)})` : ''}`;
    case 'identifier.add':
    case 'identifier.remove':
    case 'identifier.disable':
    case 'identifier.enable':
      return `${IDENTIFIER_VERBS[e.action]} identifier ${codeSpan(e.target)}${e.title ? ` (${escaped(e.title)})` : ''}${e.detail && e.action === 'identifier.add' ? ` from ${escaped(e.detail)}` : ''}`;
    case 'workflow.decision':
      return `decided “${escaped(e.detail ?? '', 20)}” on event ${codeSpan(e.target)} (Ask a person to decide)`;
    case 'intel.request':
      return `asked Threat Flow for a report (request ${codeSpan(e.target)})`;
    case 'settings.actors':
      return `changed who may ${PERMISSION_WORDS.act} to ${codeSpan(e.target)}`;
    case 'settings.admins':
      return `changed who administers Vigil to ${codeSpan(e.target)}`;
    case 'permission.refused':
      return e.target === 'admin'
        ? `tried to ${e.detail ? escaped(e.detail) : 'do what only admins do'}`
        : `tried what the ${codeSpan(e.target)} permission allows`;
  }
  const permission = e.action.startsWith('settings.') ? e.action.slice('settings.'.length) : '';
  if (isPermission(permission))
    return `changed who may ${PERMISSION_WORDS[permission]} to ${codeSpan(e.target)}`;
  // An action this version has no words for yet: its name and target, as stored.
  const name = codeSpan(e.action.replace(/[^A-Za-z0-9._-]/g, ''));
  return `${name} ${codeSpan(e.target)}${e.detail ? ` — ${escaped(e.detail)}` : ''}`;
}

/** `date · @user ignored “title” \`uid\``. */
export function auditLine(e: AuditEntry): string {
  return `${slackDate(e.at)} · ${userMention(e.userId) ?? 'someone'} ${auditWords(e)}`;
}

/** "The last action taken through Vigil." / "The last 5 actions taken through Vigil." */
export function auditSummary(n: number): string {
  return n === 1 ? 'The last action taken through Vigil.' : `The last ${n} actions taken through Vigil.`;
}
