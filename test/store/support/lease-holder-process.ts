/**
 * A lease holder in a process of its own, for tests that stop it for real (SIGSTOP) while it holds a lease.
 * Argv: store URL, working folder, start time (ms), lease key. It opens the store on a manual clock with a
 * heartbeat beaten on command, takes the lease and prints `leased <token>`. Then one command per stdin line:
 * `now <ms>` sets its clock, `beat` beats its heartbeat, `write <value>` tries the write the lease guards
 * (record `fenced:result`) and prints `written` or `refused`. A stopped process reads its commands on resume.
 */
import { createInterface } from 'node:readline';
import { silentLogger } from '../../../src/kernel/logger.js';
import type { HeartbeatTimer } from '../../../src/store/backend/liveness.js';
import { openStore } from '../../../src/store/backend/open.js';
import { ManualClock } from '../../support/manual-clock.js';

const [url = '', cwd = '', start = '0', key = ''] = process.argv.slice(2);
const clock = new ManualClock(Number(start));
const beats: Array<() => Promise<void>> = [];
const timer: HeartbeatTimer = {
  every(_ms, fn) {
    beats.push(fn);
    return { cancel: () => beats.splice(beats.indexOf(fn), 1) };
  },
};
const store = await openStore(url, {
  logger: silentLogger,
  cwd,
  clock,
  instanceName: 'host-paused',
  heartbeat: { timer },
});
const lease = await store.lease(key, 60_000);
if (lease === undefined) throw new Error(`lease ${key} is held`);
const records = store.namespace('fenced');
process.stdout.write(`leased ${lease.token}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, arg = ''] = line.split(' ');
  if (command === 'now') clock.set(Number(arg));
  else if (command === 'beat') for (const beat of beats) await beat();
  else if (command === 'write')
    process.stdout.write(
      `${(await records.setFenced(lease.fence, 'result', arg)) ? 'written' : 'refused'}\n`,
    );
}
await store.close();
