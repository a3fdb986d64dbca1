/**
 * The store's format, stamped in the store itself (`vigil:meta:format`) and separate from Vigil's version:
 * it moves only when what is stored changes. Format 1 is release 0.1.0's store (no stamp, records without a
 * format); format 2 stamps the store and every record; format 3 writes events contexts with a kind (records of
 * `search-context` format 2), which 0.4.0 cannot read. A store stamped with a format this build does not know
 * was written by a newer release: start-up stops rather than misread it or write over it.
 */
import { VIGIL_VERSION } from '../../kernel/version.js';
import { StoreError } from './errors.js';
import type { Store } from './store.js';

const STORE_FORMAT = 3;
const META = 'meta';
const STAMP_KEY = 'format';

interface Stamp {
  format: number;
  /** The release that last stamped the store. */
  release: string;
}

/** @internal */
export class StoreFormatError extends StoreError {
  constructor(
    readonly found: Stamp,
    where: string,
  ) {
    super(
      `the store ${where} was written by Vigil ${found.release} (store format ${found.format}); Vigil ${VIGIL_VERSION} reads store formats up to ${STORE_FORMAT}: run Vigil ${found.release} or newer, or restore a backup taken before the upgrade`,
    );
    this.name = 'StoreFormatError';
  }
}

function parseStamp(raw: unknown): Stamp | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { format, release } = raw as { format?: unknown; release?: unknown };
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) return undefined;
  return { format, release: typeof release === 'string' ? release.slice(0, 40) : 'unknown' };
}

/**
 * Refuses a store of a newer format; stamps an older or new one with this build's format and release. Nothing
 * needs converting from format 1: its records read as format 1.
 */
export async function checkStoreFormat(store: Store, where: string): Promise<void> {
  const meta = store.namespace(META);
  const raw = await meta.get(STAMP_KEY);
  const stamp = raw === undefined ? undefined : parseStamp(raw);
  if (raw !== undefined && stamp === undefined) {
    throw new StoreError(`the store ${where} has an unreadable format stamp (vigil:meta:format)`);
  }
  if (stamp && stamp.format > STORE_FORMAT) throw new StoreFormatError(stamp, where);
  if (stamp?.format === STORE_FORMAT && stamp.release === VIGIL_VERSION) return;
  await meta.set(STAMP_KEY, { format: STORE_FORMAT, release: VIGIL_VERSION } satisfies Stamp);
}
