/** The store layer's public surface. */
export * from './audit-repo.js';
export * from './connect-link-repo.js';
export * from './errors.js';
export { workspaceKey } from './ids.js';
export * from './installation-repo.js';
export { describeStoreUrl, type OpenStoreOptions, openStore } from './open.js';
export * from './repositories.js';
export * from './sealing.js';
export * from './search-context-repo.js';
export * from './settings-repo.js';
export type { Namespace, Store } from './store.js';
export * from './subscription-repo.js';
export * from './workspace-data.js';
export * from './workspace-repo.js';
