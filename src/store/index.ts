/**
 * The store layer's public surface: everything outside src/store imports the store through this file, or
 * through opening.ts for what start-up uses before the web server listens.
 */
export type { StoreObserver } from './backend/outage.js';
export { isStoreOutage } from './backend/outage.js';
export type { Lease } from './backend/store.js';
// What start-up uses before listening: the store's opening, errors, sealer and workspace keys.
export * from './opening.js';
export * from './repos/alert-follow-repo.js';
export * from './repos/alert-state-records.js';
export * from './repos/alert-state-repo.js';
export * from './repos/alert-subscription-repo.js';
export * from './repos/api-probe-repo.js';
export * from './repos/api-token-repo.js';
export * from './repos/ask-person-index.js';
export * from './repos/audit-repo.js';
export * from './repos/command-note-repo.js';
export * from './repos/connect-link-repo.js';
export * from './repos/digest-outbox.js';
export * from './repos/digest-subscription-repo.js';
export * from './repos/digest-trend-repo.js';
export * from './repos/event-state-repo.js';
export * from './repos/installation-repo.js';
export * from './repos/message-sync-repo.js';
export { unlessUnreadable } from './repos/records.js';
export * from './repos/repositories.js';
export * from './repos/reseal.js';
export * from './repos/sealing.js';
export * from './repos/search-context-repo.js';
export * from './repos/settings-repo.js';
export * from './repos/snooze-repo.js';
export * from './repos/subscription-repo.js';
export * from './repos/team-indexed-repo.js';
export * from './repos/unreadable.js';
export * from './repos/workspace-data.js';
export * from './repos/workspace-record-repo.js';
export * from './repos/workspace-repo.js';
