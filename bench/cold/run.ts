/** `npm run bench:cold`: only the whole-process cold start (`npm run bench` runs it too). Option: --colds. */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { startUpstreams } from '../targets.js';
import { coldStartTable, runColdStartBench } from './cold-start.js';

const { values } = parseArgs({ options: { colds: { type: 'string', default: '7' } } });
const runs = Number(values.colds);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--colds must be a positive integer, got ${values.colds}`);

process.stdout.write(`node ${process.version}, ${availableParallelism()} CPUs\n`);
const up = await startUpstreams();
try {
  const cold = await runColdStartBench(up, runs);
  process.stdout.write(`\n${coldStartTable(cold)}\n\n${JSON.stringify({ bench: 'cold-start', ...cold })}\n`);
} finally {
  await up.close();
}
