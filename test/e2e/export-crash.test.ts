/**
 * A credentials export whose process dies (SIGKILL) mid-way, with real processes on one store: the spool it
 * left holds no plaintext (it is encrypted with a key that lived only in the dead process), a Vigil restarted on
 * the same store removes it, tells the requester in place of "Exporting…" that the export was interrupted and
 * can be started again, and the requester can start it again at once.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  type FakeSlack,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { getButton } from '../harness/index.js';
import { type CrashWorld, openCrashWorld } from '../support/crash-world.js';
import { until } from '../support/until.js';

const SEARCH = /\/v4\/credentials\/global\/_search$/;

let world: CrashWorld;
let sim: SimApi;
let slack: FakeSlack;
let spoolRoot: string;

beforeAll(async () => {
  world = await openCrashWorld({ sim: { emptyPageEvery: 0 } });
  ({ sim, slack } = world);
  spoolRoot = join(world.dir, 'tmp');
  await mkdir(spoolRoot);
});

afterAll(async () => {
  await world?.close();
});

/** The export spool files under the processes' TMPDIR. */
async function spools(): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(spoolRoot)) {
    if (!d.startsWith('vigil-export-')) continue;
    for (const f of await readdir(join(spoolRoot, d)).catch(() => [] as string[]))
      out.push(join(spoolRoot, d, f));
  }
  return out;
}

const searches = () => sim.log.entries.filter((e) => SEARCH.test(e.path)).length;

describe.each([
  ['on the same host', 'same', undefined],
  // Another instance name (a new pod) restarted at once: the dead holder's heartbeat still stands for seconds.
  ['quickly on another host', 'other', ['vigil-a', 'vigil-b']],
] as const)('a credentials export whose process is killed, restarted %s', (_how, name, instances) => {
  it('leaves no plaintext, and a restart cleans up, tells the requester, and lets them export again', async () => {
    const env = world.env({ TMPDIR: spoolRoot }, `vigil-${name}.sqlite`);
    const mark = slack.calls.length;
    const since = (method: string) => slack.calls.slice(mark).filter((c) => c.method === method);
    const first = await world.start(instances ? { ...env, VIGIL_INSTANCE_NAME: instances[0] } : env);
    const sender = world.sender;
    const searchUrl = slack.responseUrl();
    await sender(first.url).slashCommand({
      text: 'creds domain bulk.example limit:1500',
      responseUrl: searchUrl,
      userId: SEEDED_USERS.admin,
    });
    const results = await slack.waitForPost((p) => `${slack.url}${p.path}` === searchUrl, 15_000);
    const exportButton = getButton(results.body, 'Export CSV');
    const clickExport = async (url: string) => {
      const responseUrl = slack.responseUrl();
      await sender(url).blockAction({
        actionId: exportButton.action_id ?? '',
        value: exportButton.value ?? '',
        blockId: exportButton.block_id ?? 'creds:tail',
        container: 'ephemeral',
        responseUrl,
        channelId: SEEDED_CHANNELS.general,
        userId: SEEDED_USERS.admin,
      });
      return slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl, 15_000);
    };

    // The first page (750 rows) is spooled; the second never comes back before the process dies.
    const before = searches();
    const started = await clickExport(first.url);
    expect(String(started.body.text)).toContain('Exporting up to 1,500 rows');
    await until('the first page', () => searches() - before >= 1);
    sim.faults.add({ path: SEARCH, response: { delayMs: 60_000 } });
    await until('the second page to be asked', () => searches() - before >= 2);
    const progress = await until('the progress message', () =>
      since('chat.postMessage').find((c) => String(c.body.text).startsWith('Exporting leaked credentials')),
    );
    const [spool] = await until('a spool with the first page', async () => {
      const files = await spools();
      const sizes = await Promise.all(files.map((f) => stat(f).then((s) => s.size)));
      return sizes.some((s) => s > 10_000) ? files : undefined;
    });
    if (!spool) throw new Error('no spool file');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    sim.faults.clear();

    // What the dead process left holds no plaintext: not the header, not a leaked identity.
    const left = await readFile(spool);
    expect(left.length).toBeGreaterThan(10_000);
    expect(left.includes('identity')).toBe(false);
    expect(left.includes('bulk.example')).toBe(false);

    const second = await world.start(instances ? { ...env, VIGIL_INSTANCE_NAME: instances[1] } : env);
    const ts = (progress.response as { ts?: string }).ts;
    const told = await until('the requester to be told', () =>
      since('chat.update').find((c) => c.body.ts === ts && /interrupted/i.test(String(c.body.text))),
    );
    expect(String(told.body.text)).toMatch(/start it again/i);
    expect(await spools()).toEqual([]);
    expect((await readdir(spoolRoot)).filter((d) => d.startsWith('vigil-export-'))).toEqual([]);

    // The slot is free: the export starts again at once, and completes.
    const again = await clickExport(second.url);
    expect(String(again.body.text)).toContain('Exporting up to 1,500 rows');
    await until('the export to be delivered', () =>
      since('chat.update').find((c) => String(c.body.text).startsWith('Export done: 1,500 rows')),
    );
    second.child.kill('SIGTERM');
  }, 120_000);
});
