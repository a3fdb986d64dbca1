import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Store } from '../../../src/store/backend/store.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { WorkspaceRecordRepo } from '../../../src/store/repos/workspace-record-repo.js';
import { ManualClock } from '../../support/manual-clock.js';

/**
 * Repositories over `store` with a hand-moved clock (the store's own when it has one) and a fresh encryption key,
 * plus raw access to the digest outbox and cursor namespaces by the test's schema (production goes through
 * `digestOutbox`).
 */
export function reposFor(store: Store, options: { auditRetention?: number; sealer?: Sealer } = {}) {
  const clock = store.clock instanceof ManualClock ? store.clock : new ManualClock();
  const sealer = options.sealer ?? new Sealer(randomBytes(32));
  const repos = {
    ...createRepositories(store, {
      clock,
      sealer,
      ...(options.auditRetention === undefined ? {} : { auditRetention: options.auditRetention }),
    }),
    digestOutboxRecords: <S extends z.ZodType>(schema: S) =>
      new WorkspaceRecordRepo(store, 'digest-outbox', schema),
    digestCursorRecords: <S extends z.ZodType>(schema: S) =>
      new WorkspaceRecordRepo(store, 'digest-cursor', schema),
  };
  return { clock, sealer, repos };
}
