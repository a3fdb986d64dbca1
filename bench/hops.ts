/**
 * `npx tsx bench/hops.ts`: how many of Vigil's source files one flow runs through, measured with V8's precise
 * coverage (files whose functions were called), through the real stack: an Ignore click on an events result,
 * and one due digest posted. Simulators and test support are left out. A measure of breadth, not of speed.
 * Before printing, it checks the flows did their work: the click reached the API as an ignore action and was
 * answered without a refusal, and the digest was posted after a search.
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import {
  actionCalls,
  addOpenEvents,
  click,
  command,
  IDENTIFIER,
  startEventsStack,
  waitPostTo,
} from '../test/features/events/support/events-stack.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { isEntry } from './entry.js';
import { atLeast, excerpt, NOT_A_RESULT, verifyWork } from './verify.js';

export interface HopsResult {
  /** Source files (relative to src/) run by the second Ignore click. */
  clickFiles: string[];
  /** Source files run by the due digest. */
  digestFiles: string[];
}

const root = fileURLToPath(new URL('../src/', import.meta.url));
const START = Date.UTC(2026, 5, 10, 6, 0);

/** Source files (outside the simulators) whose code ran since the last call. */
async function filesRun(session: Session): Promise<string[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(root)) continue;
    if (script.functions.some((f) => f.ranges.some((r) => r.count > 0))) files.add(path.slice(root.length));
  }
  return [...files].sort();
}

export async function runHopsBench(): Promise<HopsResult> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const clock = new ManualClock(START);
  // A plain member clicks and subscribes: an admin opened `act` and `subscribe` to everyone.
  const stack = await startEventsStack({ clock, open: ['act', 'subscribe'] });
  try {
    const id = IDENTIFIER.domain;
    const answers: string[] = [];
    const ignoreClick = async (): Promise<void> => {
      addOpenEvents(stack, id, 2);
      const { post } = await command(stack, `events ${id} status:open size:2`);
      const page = { blocks: post.body.blocks as unknown[], text: String(post.body.text) };
      // The command's handler ends after Slack answered its post: its last steps are not the click's.
      await stack.tracker.idle();
      await filesRun(session);
      const clicked = await click(stack, page, 'event_ignore:0');
      answers.push(JSON.stringify((await waitPostTo(stack, clicked.responseUrl)).body));
    };
    await ignoreClick(); // warm-up: first loads are not the flow
    const actionsBefore = actionCalls(stack).length;
    await ignoreClick();
    const clickFiles = await filesRun(session);
    const ignored = actionCalls(stack).length - actionsBefore;

    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always');
    clock.set(START + 10 * 24 * 3600_000);
    await stack.runDigests(); // warm-up run
    clock.set(START + 11 * 24 * 3600_000);
    addOpenEvents(stack, id, 2);
    await filesRun(session);
    const postsBefore = digestPosts(stack.slack.calls);
    await stack.runDigests();
    const digestFiles = await filesRun(session);
    const answer = answers.at(-1) ?? '';
    verifyWork('hops', [
      atLeast('ignore action at the API for the measured click', ignored, 1),
      {
        what: 'the measured click answered without a refusal or an error',
        ok: answer !== '' && !NOT_A_RESULT.test(answer),
        got: excerpt(answer),
      },
      atLeast('digest posted by the measured run', digestPosts(stack.slack.calls) - postsBefore, 1),
    ]);
    return { clickFiles, digestFiles };
  } finally {
    await stack.close();
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  }
}

/** Digests posted so far (chat.postMessage answered ok, with Vigil's digest metadata). */
function digestPosts(
  calls: ReadonlyArray<{ method: string; body: Record<string, unknown>; response: { ok?: unknown } }>,
) {
  return calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.response.ok === true &&
      JSON.stringify(c.body.metadata ?? '').includes('vigil_digest'),
  ).length;
}

if (isEntry(import.meta.url)) {
  const { clickFiles, digestFiles } = await runHopsBench();
  const out = process.argv.includes('--list')
    ? `click:\n  ${clickFiles.join('\n  ')}\ndigest:\n  ${digestFiles.join('\n  ')}\n`
    : '';
  process.stdout.write(`${out}| flow | source files run |\n| --- | --- |\n`);
  process.stdout.write(`| Ignore click on an events result | ${clickFiles.length} |\n`);
  process.stdout.write(`| one due digest posted | ${digestFiles.length} |\n`);
}
