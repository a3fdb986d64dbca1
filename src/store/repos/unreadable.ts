/**
 * Records that cannot be read (a disk error, a hand edit, an upgrade gone wrong) are set aside rather than
 * failing everything that lists them: each is logged once with its key, without a stack, and counted, and the
 * list that met it goes on without it. Removing the record (its id stays removable) clears it.
 */
import type { Logger } from '../../logger.js';
import { StoreCorruptionError } from '../backend/errors.js';

export class UnreadableRecords {
  private readonly seen = new Map<string, string>();

  constructor(private readonly logger?: Logger) {}

  /** Records a corrupt record once and returns undefined; any other error is rethrown. */
  setAside(error: unknown): undefined {
    if (!(error instanceof StoreCorruptionError)) throw error;
    const record = `${error.namespace}:${error.key}`;
    if (!this.seen.has(record)) {
      this.seen.set(record, error.problems.join('; '));
      this.logger?.warn('unreadable record set aside; it can be removed', {
        record,
        problem: error.problems.join('; ').slice(0, 300),
      });
    }
    return undefined;
  }

  /** How many distinct unreadable records this process has met (for metrics). */
  get count(): number {
    return this.seen.size;
  }

  forget(namespace: string, key: string): void {
    this.seen.delete(`${namespace}:${key}`);
  }
}
