/**
 * `npx tsx bench/hops.ts`: how many of Vigil's source files one flow runs through, measured with V8's precise
 * coverage (files whose functions were called), through the real stack: an Ignore click on an events result,
 * and one due digest posted. Simulators and test support are left out. A measure of breadth, not of speed.
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import {
  addOpenEvents,
  click,
  command,
  IDENTIFIER,
  startEventsStack,
  waitPostTo,
} from '../test/features/events/support/events-stack.js';
import { ManualClock } from '../test/support/manual-clock.js';

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const root = fileURLToPath(new URL('../src/', import.meta.url));

/** Source files (outside the simulators) whose code ran since the last call. */
async function filesRun(): Promise<string[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(root) || path.startsWith(`${root}sim/`)) continue;
    if (script.functions.some((f) => f.ranges.some((r) => r.count > 0))) files.add(path.slice(root.length));
  }
  return [...files].sort();
}

const START = Date.UTC(2026, 5, 10, 6, 0);
const clock = new ManualClock(START);
// A plain member clicks and subscribes: an admin opened `act` and `subscribe` to everyone.
const stack = await startEventsStack({ clock, open: ['act', 'subscribe'] });
try {
  const id = IDENTIFIER.domain;
  async function ignoreClick(): Promise<void> {
    addOpenEvents(stack, id, 2);
    const { post } = await command(stack, `events ${id} status:open size:2`);
    const page = { blocks: post.body.blocks as unknown[], text: String(post.body.text) };
    await filesRun();
    const clicked = await click(stack, page, 'event_ignore:0');
    await waitPostTo(stack, clicked.responseUrl);
  }
  await ignoreClick(); // warm-up: first loads are not the flow
  await ignoreClick();
  const clickFiles = await filesRun();

  await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
  clock.set(START + 10 * 24 * 3600_000);
  await stack.vigil.runDigestsNow(); // warm-up run
  clock.set(START + 11 * 24 * 3600_000);
  addOpenEvents(stack, id, 2);
  await filesRun();
  await stack.vigil.runDigestsNow();
  const digestFiles = await filesRun();

  const out = process.argv.includes('--list')
    ? `click:\n  ${clickFiles.join('\n  ')}\ndigest:\n  ${digestFiles.join('\n  ')}\n`
    : '';
  process.stdout.write(`${out}| flow | source files run |\n| --- | --- |\n`);
  process.stdout.write(`| Ignore click on an events result | ${clickFiles.length} |\n`);
  process.stdout.write(`| one due digest posted | ${digestFiles.length} |\n`);
} finally {
  await stack.close();
}
