/**
 * What start-up needs of the store before the web server listens: opening it, its errors, the sealer and
 * workspace keys, without the repositories and their record schemas (index.ts, loaded once it listens).
 */
export * from './backend/errors.js';
export type { HeartbeatOptions } from './backend/liveness.js';
export { openStore } from './backend/open.js';
export type { AnswerBound } from './backend/outage.js';
export type { Store } from './backend/store.js';
export { workspaceKey } from './repos/ids.js';
export { checkSealedKeys } from './repos/key-index.js';
export { loadSealer } from './repos/sealing.js';
