/** What the ask-person loop works with: its records, Slack, the company's domains, the audit trail, time. */
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { NewAuditEntry } from '../../store/index.js';
import type { Ask, RowAnswer } from './model.js';
import type { AskRecords } from './records.js';
import type { AskSlack } from './slack.js';

export interface AskSettings {
  /** VIGIL_ASK_PERSON_COOLDOWN: the same credential is not asked about again within it. */
  cooldownMs: number;
  /** VIGIL_ASK_PERSON_PER_HOUR: DMs a workspace an hour; the rest wait their turn. */
  perHour: number;
  /** VIGIL_ASK_PERSON_ESCALATE: no answer within it mentions the subscription's group once. */
  escalateMs: number;
}

/** The alerts' rows: the row of an event shows who was asked and their answer (attached by the alerts' follower). */
export interface AlertRows {
  showAsked(
    ref: { workspaceId: string; channelId: string; ts: string },
    uid: string,
    asked: { user: string; answer: RowAnswer; at: number },
  ): Promise<void>;
}

export interface AskEngineDeps {
  records: AskRecords;
  slack: AskSlack;
  /** The company's domains: the tenant's domain identifiers and the domains of its e-mail identifiers. */
  domains(workspaceId: string): Promise<ReadonlySet<string>>;
  /** Whether the workspace's installer granted `users:read.email` (an optional scope). */
  mayLookUpEmails(workspaceId: string): Promise<boolean>;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  /** Whether a claim's owner is still running (a dead one's claim is taken over at once). */
  isAlive(owner: string): Promise<boolean>;
  clock: Clock;
  logger: Logger;
  /** This instance, as named in claims. */
  owner: string;
  settings: AskSettings;
  rows?: AlertRows;
}

/** The audit entry of one step of an ask, done by Vigil unless `userId` says who. */
export function auditOf(
  ask: Pick<Ask, 'id' | 'masked' | 'source' | 'eventUid'>,
  workspaceId: string,
  action: string,
  detail: string,
  userId = 'vigil',
): NewAuditEntry {
  return {
    teamId: workspaceId,
    userId,
    action: `ask-person.${action}`,
    target: ask.eventUid,
    detail: `${ask.masked} (${ask.source}): ${detail}`,
  };
}
