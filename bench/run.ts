/**
 * `npm run bench`: every benchmark in sequence, all on 127.0.0.1 with no network. Options (for a quick
 * check): --count, --warmup, --rounds, --levels 10,50, --startups, --colds, --session; --only fairness, ack,
 * creds or playground runs that one alone.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { runAckBench } from './ack-latency.js';
import { coldStartTable, runColdStartBench } from './cold/cold-start.js';
import { credsExportTable, runCredsExportBench } from './creds-export.js';
import { fairnessTable, runFairnessBench } from './fairness.js';
import { startLoadClient } from './load/client.js';
import { playgroundSessionTable, runPlaygroundSessionBench } from './playground.js';
import { ackJson, ackTable, startupJson, startupTable } from './report.js';
import { runStartupBench } from './startup.js';
import { SIGNING_SECRET, startBareBolt, startUpstreams, startVigilTarget, vigilHelpAck } from './targets.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '8' },
    levels: { type: 'string', default: '10,50' },
    startups: { type: 'string', default: '10' },
    /** `--only creds`, `--only fairness` or `--only ack`: just that benchmark. */
    only: { type: 'string', default: '' },
    colds: { type: 'string', default: '7' },
    'creds-rows': { type: 'string', default: '10000' },
    'creds-rounds': { type: 'string', default: '5' },
    /** Commands in the playground session (measured after 10 and after this many). */
    session: { type: 'string', default: '300' },
  },
});

function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
}

const print = (text: string) => process.stdout.write(`${text}\n`);

async function main(): Promise<void> {
  const ack = {
    count: positiveInt('count', values.count),
    warmup: positiveInt('warmup', values.warmup),
    rounds: positiveInt('rounds', values.rounds),
    levels: values.levels.split(',').map((l) => positiveInt('levels', l.trim())),
  };
  const startups = positiveInt('startups', values.startups);
  const colds = positiveInt('colds', values.colds);
  print(`node ${process.version}, ${availableParallelism()} CPUs; load generator in a worker thread`);
  const only = values.only;
  if (only === 'creds') {
    await credsBench();
    return;
  }
  if (only === 'playground') {
    await playgroundBench();
    return;
  }

  const up = await startUpstreams();
  if (values.only === 'fairness') {
    try {
      const fairness = await runFairnessBench(up);
      print(`\n${fairnessTable(fairness)}\n`);
      print(JSON.stringify({ fairness }));
    } finally {
      await up.close();
    }
    return;
  }
  try {
    const baseline = await startBareBolt(up);
    const sameBody = await startBareBolt(up, { ackBody: vigilHelpAck() });
    const vigil = await startVigilTarget(up);
    const client = startLoadClient();
    try {
      const results = await runAckBench(ack, {
        client,
        servers: { baseline, sameBody, vigil },
        signingSecret: SIGNING_SECRET,
        responseUrl: up.responseUrl,
      });
      for (const r of results) print(`\n${ackTable(r)}`);
      print('');
      for (const r of results) print(ackJson(r));
    } finally {
      await client.close();
      await Promise.allSettled([baseline.stop(), sameBody.stop(), vigil.stop()]);
    }
    if (only === 'ack') return;

    const startup = await runStartupBench(up, startups);
    print(`\n${startupTable(startup)}\n`);
    print(startupJson(startup));

    const fairness = await runFairnessBench(up);
    print(`\n${fairnessTable(fairness)}\n`);
    print(JSON.stringify({ fairness }));

    const cold = await runColdStartBench(up, colds);
    print(`\n${coldStartTable(cold)}\n`);
    print(JSON.stringify({ bench: 'cold-start', ...cold }));
  } finally {
    await up.close();
  }
  await credsBench();
  await playgroundBench();
}

async function playgroundBench(): Promise<void> {
  const r = await runPlaygroundSessionBench(positiveInt('session', values.session));
  print(`\n${playgroundSessionTable(r)}\n`);
  print(`BENCH ${JSON.stringify({ bench: 'playground-session', ...r })}`);
}

async function credsBench(): Promise<void> {
  const r = await runCredsExportBench(
    positiveInt('creds-rows', values['creds-rows']),
    positiveInt('creds-rounds', values['creds-rounds']),
  );
  print(`\n${credsExportTable(r)}\n`);
  print(`BENCH ${JSON.stringify({ bench: 'creds-export', ...r })}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
