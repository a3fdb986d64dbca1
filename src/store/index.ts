/** The store layer's public surface: everything outside src/store imports the store through this file. */
export * from './backend/errors.js';
export { describeStoreUrl, type OpenStoreOptions, openStore } from './backend/open.js';
export type { Lease, Namespace, Store } from './backend/store.js';
export * from './repos/audit-repo.js';
export * from './repos/command-note-repo.js';
export * from './repos/connect-link-repo.js';
export * from './repos/event-state-repo.js';
export { workspaceKey } from './repos/ids.js';
export * from './repos/installation-repo.js';
export { NAMESPACES, type NamespaceName, type NamespaceSpec } from './repos/namespaces.js';
export * from './repos/repositories.js';
export * from './repos/sealing.js';
export * from './repos/search-context-repo.js';
export * from './repos/settings-repo.js';
export * from './repos/subscription-repo.js';
export * from './repos/workspace-data.js';
export * from './repos/workspace-record-repo.js';
export * from './repos/workspace-repo.js';
