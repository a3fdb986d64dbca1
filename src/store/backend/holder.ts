/**
 * Who holds a lease: `<host>/<pid>` or, for an instance that keeps a heartbeat (liveness.ts),
 * `<host>/<pid>/<boot>` with a random boot id per start. A process of this host that no longer runs is
 * recognised at once; so is an earlier start that had this very pid (a container restarted as pid 1). Any
 * other holder is taken as alive here: for those with a boot id, the heartbeat decides (see the store).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export interface LeaseHolder {
  /** This process, as written into the leases it takes. */
  readonly id: string;
  /** False only when `id` names a process of this host that no longer runs. */
  isAlive(id: string): boolean;
}

const HOLDER_ID = /^([^/#]+)\/(\d+)(?:\/([A-Za-z0-9_-]+))?$/;

export interface ParsedHolder {
  host: string;
  pid: number;
  /** Present when the holder keeps a heartbeat. */
  boot: string | undefined;
}

export function parseHolderId(id: string): ParsedHolder | undefined {
  const m = HOLDER_ID.exec(id);
  if (!m) return undefined;
  return { host: m[1] as string, pid: Number(m[2]), boot: m[3] };
}

/** A fresh boot id: names this start of the process, so a later start with the same pid is another holder. */
export const newBootId = (): string => randomBytes(6).toString('base64url');

export function processHolder(
  host: string = hostname(),
  pid: number = process.pid,
  boot?: string,
): LeaseHolder {
  return {
    id: boot === undefined ? `${host}/${pid}` : `${host}/${pid}/${boot}`,
    isAlive(id) {
      const other = parseHolderId(id);
      if (!other || other.host !== host) return true;
      // This pid is ours now: a holder with it is this process, or an earlier start that is gone.
      if (other.pid === pid) return other.boot === undefined || boot === undefined || other.boot === boot;
      try {
        process.kill(other.pid, 0);
        return true;
      } catch (error) {
        // EPERM: it runs under another user. Only ESRCH says it is gone.
        return (error as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    },
  };
}
