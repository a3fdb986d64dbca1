/** What each part of the events feature uses, apart: a part's listeners get only what it declares. */
import type { AuditTrail } from '../../domain/audit.js';
import type { ContainEntry } from '../../domain/contain-entry.js';
import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { ListContexts } from '../../domain/list-context.js';
import type { SnoozeService } from '../../domain/snooze-service.js';
import type { StealerLogs } from '../../domain/stealer-logs.js';
import type { SlackBase } from '../../slack/context.js';
import type { Click } from '../../slack/listen.js';
import type { EventsService } from './service.js';

/** The events commands, the secret modal, the events of an identifier by name. */
export interface EventsDeps extends SlackBase {
  events: EventsService;
  identifiers: IdentifierDirectory;
  /** Short-lived contexts behind list buttons. */
  lists: ListContexts;
}

/** The snooze form an event's menu opens, and Unsnooze. */
export interface EventSnoozeDeps extends SlackBase {
  events: EventsService;
  /** Short-lived contexts behind pending forms. */
  lists: ListContexts;
  snoozes: SnoozeService;
}

/** An infected device's stealer log, paged and revealed. */
export interface StealerLogDeps extends SlackBase {
  events: EventsService;
  /** The credentials feature's stealer logs (the log behind an infected-device event). */
  credentials: { stealerLogs: StealerLogs };
  /** An identity provider to contain saved logins in (containment); absent or disconnected: no button. */
  containment?: ContainEntry;
}

/** What an event row's buttons and menu open that is another part's: each bound to that part's own deps. */
export interface RowForms {
  triage(click: Click): Promise<void>;
  snooze(click: Click): Promise<void>;
  unsnooze(click: Click): Promise<void>;
  stealerLog(click: Click): Promise<void>;
}

/** An event row's buttons and menu: acting on events, paging, sharing (audited), and the forms they open. */
export interface EventRowsDeps extends SlackBase {
  events: EventsService;
  audit: AuditTrail;
  forms: RowForms;
}
