/**
 * Who holds a lease: `<host>/<pid>`, so a lease left by a process that died on this host can be recognised
 * at once instead of waiting out its term. A holder on another host is always taken as alive (its lease
 * lapses on its own), and so is anything not in that shape.
 */
import { hostname } from 'node:os';

export interface LeaseHolder {
  /** This process, as written into the leases it takes. */
  readonly id: string;
  /** False only when `id` names a process of this host that no longer runs. */
  isAlive(id: string): boolean;
}

export function processHolder(host: string = hostname(), pid: number = process.pid): LeaseHolder {
  return {
    id: `${host}/${pid}`,
    isAlive(id) {
      const m = /^(.+)\/(\d+)$/.exec(id);
      if (!m || m[1] !== host) return true;
      const other = Number(m[2]);
      if (other === pid) return true;
      try {
        process.kill(other, 0);
        return true;
      } catch (error) {
        // EPERM: it runs under another user. Only ESRCH says it is gone.
        return (error as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    },
  };
}
