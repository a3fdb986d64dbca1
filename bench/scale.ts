/**
 * `npm run bench:scale`: Vigil as several instances on one Redis. For 1, 2 and 4 Vigil processes on one real
 * redis-server behind a round-robin balancer (bench/scale/balancer.ts), against the simulated API enforcing
 * production's per-organization limits (429 beyond 4 requests/s, no Retry-After): a burst of 200 searches from
 * 20 members over 5 organizations (one workspace each, OAuth installations). Reports per instance count: 429s
 * received, token generations, answer latency p50/p99, throughput, and each organization's highest request
 * rate in any one-second window: as the instances sent the requests (their `api call` debug lines: the time
 * logged minus the call's duration) and as they arrived at the simulated API (which runs in this busy
 * process, so its arrival times bunch by however late its event loop reads them). Then, in the same run, the
 * `/vigil help` ack against a
 * bare Bolt app (bench/ack-latency.ts). Options: --instances 1,2,4 --searches 200 --members 20 --orgs 5
 * --in-flight 2, and --ack-count/--ack-warmup/--ack-rounds/--ack-levels, --no-ack.
 *
 * First, the customer-base fleet (bench/scale/fleet.ts, issue 43): --workspaces 2000 over --tenants 400 with
 * alerts, the state sync and digests running on the same --instances for --seconds 60 of new events, polling
 * every --poll-ms 10000, each tenant getting --events-per-tenant new events spread over the window (one per 30
 * seconds by default); --no-takeover skips killing one of two instances, --no-fleet / --no-burst skip a part.
 * Its fairness figure is printed beside what a perfectly fair scheduler shows with the same samples
 * (scale/fair-baseline.ts): with two events a workspace that alone is 1.55.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { runAckBench } from './ack-latency.js';
import { startLoadClient } from './load/client.js';
import { ackTable } from './report.js';
import { runFleetBench } from './scale/fleet.js';
import { fleetDetails, fleetTable } from './scale/fleet-report.js';
import { runScaleBench, type ScaleResult } from './scale/run-scale.js';
import { SIGNING_SECRET, startBareBolt, startUpstreams, startVigilTarget, vigilHelpAck } from './targets.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '1,2,4' },
    searches: { type: 'string', default: '200' },
    members: { type: 'string', default: '20' },
    orgs: { type: 'string', default: '5' },
    'in-flight': { type: 'string', default: '2' },
    'ack-count': { type: 'string', default: '4000' },
    'ack-warmup': { type: 'string', default: '400' },
    'ack-rounds': { type: 'string', default: '8' },
    'ack-levels': { type: 'string', default: '10,50' },
    'no-ack': { type: 'boolean', default: false },
    workspaces: { type: 'string', default: '2000' },
    tenants: { type: 'string', default: '400' },
    seconds: { type: 'string', default: '60' },
    'poll-ms': { type: 'string', default: '10000' },
    'events-per-tenant': { type: 'string' },
    'no-takeover': { type: 'boolean', default: false },
    'no-fleet': { type: 'boolean', default: false },
    'no-burst': { type: 'boolean', default: false },
  },
});

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
}
const list = (name: string, raw: string) => raw.split(',').map((v) => positiveInt(name, v.trim()));
const print = (text: string) => process.stdout.write(`${text}\n`);

const OPTIONS = {
  instances: list('instances', values.instances),
  searches: positiveInt('searches', values.searches),
  members: positiveInt('members', values.members),
  orgs: positiveInt('orgs', values.orgs),
  inFlight: positiveInt('in-flight', values['in-flight']),
};
/** The API's per-organization limit for these calls (ordinary tier). */
const ORG_LIMIT = 4;

function scaleTable(results: ScaleResult[]): string {
  const rows = results.map((r) => {
    const sent = Math.max(0, ...Object.values(r.sentPeakPerOrg));
    const arrived = Math.max(0, ...Object.values(r.peakPerOrg));
    return [
      String(r.instances),
      `${r.answered}/${r.searches}${r.notResults > 0 ? ` (${r.notResults} not results)` : ''}`,
      String(r.received429),
      `${r.tokenGenerations} (goal ${r.tenants})`,
      `${r.p50Ms.toFixed(0)} ms / ${r.p99Ms.toFixed(0)} ms`,
      `${r.perSecond.toFixed(1)}/s`,
      `${sent}/s sent, ${arrived}/s arrived (limit ${ORG_LIMIT})`,
    ];
  });
  const head = [
    'instances',
    'answered',
    '429s',
    'token generations',
    'answer p50 / p99',
    'throughput',
    'highest rate per organization',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function ackBench(): Promise<void> {
  const up = await startUpstreams();
  try {
    const baseline = await startBareBolt(up);
    const sameBody = await startBareBolt(up, { ackBody: vigilHelpAck() });
    const vigil = await startVigilTarget(up);
    const client = startLoadClient();
    try {
      const results = await runAckBench(
        {
          count: positiveInt('ack-count', values['ack-count']),
          warmup: positiveInt('ack-warmup', values['ack-warmup']),
          rounds: positiveInt('ack-rounds', values['ack-rounds']),
          levels: list('ack-levels', values['ack-levels']),
        },
        {
          client,
          servers: { baseline, sameBody, vigil },
          signingSecret: SIGNING_SECRET,
          responseUrl: up.responseUrl,
        },
      );
      for (const r of results) print(`\n${ackTable(r)}`);
    } finally {
      await client.close();
      await Promise.allSettled([baseline.stop(), sameBody.stop(), vigil.stop()]);
    }
  } finally {
    await up.close();
  }
}

async function fleetBench(): Promise<void> {
  const opts = {
    workspaces: positiveInt('workspaces', values.workspaces),
    tenants: positiveInt('tenants', values.tenants),
    instances: OPTIONS.instances,
    seconds: positiveInt('seconds', values.seconds),
    pollMs: positiveInt('poll-ms', values['poll-ms']),
    takeover: !values['no-takeover'],
    ...(values['events-per-tenant'] === undefined
      ? {}
      : { eventsPerTenant: positiveInt('events-per-tenant', values['events-per-tenant']) }),
  };
  print(
    `fleet: ${opts.workspaces} workspaces over ${opts.tenants} tenants (an alert and a digest subscription each), ` +
      `instances ${opts.instances.join(', ')} on one redis-server, ${opts.seconds} s of new events` +
      `${opts.eventsPerTenant === undefined ? '' : ` (${opts.eventsPerTenant} per tenant)`}, poll every ${opts.pollMs} ms`,
  );
  // Each run is verified (events, alerts, feed searches) before its figures are printed.
  const results = await runFleetBench(opts, (r) =>
    print(`BENCH ${JSON.stringify({ bench: 'scale-fleet', ...r })}`),
  );
  print(`\n${fleetTable(results)}`);
  for (const r of results) for (const line of fleetDetails(r)) print(line);
}

async function main(): Promise<void> {
  const { instances, searches, members, orgs, inFlight } = OPTIONS;
  print(`node ${process.version}, ${availableParallelism()} CPUs`);
  if (!values['no-fleet']) await fleetBench();
  if (values['no-burst']) {
    if (!values['no-ack']) await ackBench();
    return;
  }
  print(
    `scale: ${searches} searches from ${members} members over ${orgs} organizations (${inFlight} in flight per member), ` +
      `instances ${instances.join(', ')} on one redis-server behind a round-robin balancer`,
  );
  // Each run is verified (results, API calls, token generations) before its figures are printed.
  const results = await runScaleBench(OPTIONS, (r) =>
    print(`BENCH ${JSON.stringify({ bench: 'scale', ...r })}`),
  );
  print(`\n${scaleTable(results)}`);
  for (const r of results) {
    const warned = Object.entries(r.warnings);
    if (warned.length > 0)
      print(`${r.instances} instance(s) logged: ${warned.map(([m, n]) => `${n}× "${m}"`).join('; ')}`);
  }
  if (!values['no-ack']) await ackBench();
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
