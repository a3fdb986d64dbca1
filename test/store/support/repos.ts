import { randomBytes } from 'node:crypto';
import type { Store } from '../../../src/store/backend/store.js';
import { createRepositories } from '../../../src/store/repos/repositories.js';
import { Sealer } from '../../../src/store/repos/sealing.js';
import { ManualClock } from '../../support/manual-clock.js';

/** Repositories over `store` with a hand-moved clock (the store's own when it has one) and a fresh encryption key. */
export function reposFor(store: Store, options: { auditRetention?: number; sealer?: Sealer } = {}) {
  const clock = store.clock instanceof ManualClock ? store.clock : new ManualClock();
  const sealer = options.sealer ?? new Sealer(randomBytes(32));
  const repos = createRepositories(store, {
    clock,
    sealer,
    ...(options.auditRetention === undefined ? {} : { auditRetention: options.auditRetention }),
  });
  return { clock, sealer, repos };
}
