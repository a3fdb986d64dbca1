/**
 * What one workspace's alert work costs in Redis, counted on the wire (redis-count.ts) on a real redis-server:
 * the work a BullMQ job runs (work.ts) for one workspace with one alert subscription, connected in the store as
 * the fleet's workspaces are, against the simulated API and Slack on a hand-moved clock. Cases: a poll that
 * finds nothing new (nearly every poll at scale), a poll that finds one event and posts it, a look when the
 * feed is not due, and the nothing-new poll again after the feed has read MAX_FEED_SEEN events (a busy tenant;
 * reading them takes about a minute: the simulated API holds production's 4 requests a second).
 * `npx tsx bench/scale/poll-cost.ts`; test/bench/poll-cost.test.ts runs it and bounds the counts.
 */
import type { DeliveryDeps } from '../../src/features/alerts/deliver.js';
import { emptyTally, workWorkspace } from '../../src/features/alerts/work.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { MAX_FEED_SEEN, openStore } from '../../src/store/index.js';
import {
  newAlert,
  POLL_MS,
  startWorld,
  TEAM,
  type World,
} from '../../test/features/alerts/support/alert-world.js';
import { startRedisServer } from '../../test/store/support/redis-server.js';
import { type CountingProxy, startCountingProxy, type WireCounts } from './redis-count.js';

export interface PollCost {
  case: string;
  /** Median over the rounds of the case. */
  commands: number;
  bytesUp: number;
  bytesDown: number;
  /** The commands of the median round, by name. */
  byName: Record<string, number>;
}

const START = Date.UTC(2026, 10, 28, 10, 0);
const ROUNDS = 5;

function medianOf(rounds: WireCounts[], what: 'commands' | 'bytesUp' | 'bytesDown'): number {
  const sorted = rounds.map((r) => r[what]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function summarize(name: string, rounds: WireCounts[]): PollCost {
  const commands = medianOf(rounds, 'commands');
  const typical = rounds.find((r) => r.commands === commands) ?? rounds[0];
  return {
    case: name,
    commands,
    bytesUp: medianOf(rounds, 'bytesUp'),
    bytesDown: medianOf(rounds, 'bytesDown'),
    byName: typical?.byName ?? {},
  };
}

async function measure(proxy: CountingProxy, work: () => Promise<void>): Promise<WireCounts> {
  proxy.reset();
  await work();
  return proxy.counts();
}

/** Adds `count` events and polls (posting them) until the feed has read them all. */
async function readMany(world: World, run: () => Promise<void>, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++)
    world.addEvent(`leak/poll-cost/${tag}-${i}`, { severity: 'high', at: world.clock.now() + i });
  // 600 events a poll (60 pages of 10): a few polls read them; the channel posts them grouped.
  for (let i = 0; i < Math.ceil(count / 500) + 2; i++) {
    world.clock.advance(POLL_MS);
    await run();
  }
}

/** `busyUids`: how many events the busy feed has read before its polls are counted (its `seen` list). */
export async function runPollCost(opts: { busyUids?: number } = {}): Promise<PollCost[]> {
  const busyUids = opts.busyUids ?? MAX_FEED_SEEN;
  const redis = await startRedisServer();
  const proxy = await startCountingProxy(redis);
  let world: World | undefined;
  try {
    const w = await startWorld({
      start: START,
      openStore: () => openStore(proxy.url, { logger: silentLogger, clock: w.clock }),
    });
    world = w;
    let deps: DeliveryDeps | undefined;
    const p = await w.instance({
      stored: true,
      wrap: (d) => {
        deps = d;
        return d;
      },
    });
    await w.connectTo(p, w.tenantId);
    await p.service.add(newAlert({ identifierIds: 'all' }));
    const run = async () => {
      if (deps === undefined) throw new Error('no alert deps');
      await workWorkspace(deps, TEAM, emptyTally());
    };
    // The first poll sets the feed's starting point; the second is the first of an established feed.
    await run();
    w.clock.advance(POLL_MS);
    await run();

    const idle: WireCounts[] = [];
    const oneEvent: WireCounts[] = [];
    const notDue: WireCounts[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      w.clock.advance(POLL_MS);
      idle.push(await measure(proxy, run));
      w.addEvent(`leak/poll-cost/one-${i}`, { severity: 'high' });
      w.clock.advance(POLL_MS);
      oneEvent.push(await measure(proxy, run));
      // The channel's next post waits about a second: the event is posted by now.
      w.clock.advance(1_000);
      notDue.push(await measure(proxy, run));
    }
    await readMany(w, run, busyUids, 'busy');
    const idleBusy: WireCounts[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      w.clock.advance(POLL_MS);
      idleBusy.push(await measure(proxy, run));
    }
    return [
      summarize('poll, nothing new', idle),
      summarize('poll, one new event posted', oneEvent),
      summarize('look, not due', notDue),
      summarize(`poll, nothing new, after ${busyUids} events read`, idleBusy),
    ];
  } finally {
    await world?.close();
    await proxy.close();
    await redis.stop();
  }
}

export function pollCostTable(costs: PollCost[]): string {
  const head = ['case', 'Redis commands', 'bytes sent / received', 'commands by name'];
  const rows = costs.map((c) => [
    c.case,
    String(c.commands),
    `${c.bytesUp} / ${c.bytesDown}`,
    Object.entries(c.byName)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `${name} ${n}`)
      .join(', '),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runPollCost()
    .then((costs) => process.stdout.write(`${pollCostTable(costs)}\n`))
    .catch((err: unknown) => {
      process.stderr.write(
        `poll-cost failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exitCode = 1;
    });
}
