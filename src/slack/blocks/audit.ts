/**
 * The audit log in words: "<@alice> ignored “Combo list…” `leak/x/1`", one line per action, a bulk action
 * with its count. Ids and the customer's own names are verbatim in code spans; other upstream text escaped.
 */
import { PERMISSION_WORDS, PERMISSIONS, type Permission } from '../../permission-rules.js';
import type { AuditEntry } from '../../store/index.js';
import { plural } from './kit.js';
import { codeSpan, escapeMrkdwn, slackDate, truncate, userMention } from './text.js';

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

function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

/** What the entry says happened, in words. */
function auditWords(e: AuditEntry): string {
  const verb = EVENT_VERBS[e.action];
  if (verb !== undefined) return eventWords(e, verb);
  const triage = triageWords(e);
  if (triage !== undefined) return triage;
  if (e.action === 'recommendation.accept') return recommendationWords(e, 'accepted');
  if (e.action === 'recommendation.reject') return recommendationWords(e, 'rejected');
  switch (e.action) {
    case 'events.share':
      return `shared events of identifier ${codeSpan(e.target)}${e.detail ? ` (${escaped(e.detail)})` : ''}`;
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
    case 'settings.actors':
      return `changed who may ${PERMISSION_WORDS.act} to ${codeSpan(e.target)}`;
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
