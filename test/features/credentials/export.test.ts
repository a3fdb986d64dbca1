/**
 * Export CSV, end to end: the button streams large pages from the simulated API into a CSV that reaches the
 * fake Slack through the upload v2 flow, in the requester's DM (never the channel), with a progress message
 * updated in place; the file parsed back; permissions, one export at a time, and the audit entry.
 */
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RecordedCall,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../../packages/playground/src/sim/slack/index.js';
import { contractProblems, fromSimLog } from '../../api/support/openapi.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, credsBodies, startCredsStack } from './support/creds-stack.js';

/** The export's columns, in order: the file's format as users' spreadsheets and scripts read it. */
const CSV_COLUMNS = [
  'id',
  'identity',
  'domain',
  'value',
  'hash_type',
  'source_id',
  'source_name',
  'breached_at',
  'leaked_at',
  'imported_at',
  'known_password_id',
  'auth_domains',
  'urls',
] as const;

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const admin = SEEDED_USERS.admin;
let stack: Stack;
beforeAll(async () => {
  stack = await startCredsStack({ clock });
});
afterAll(async () => {
  await stack?.close();
});

type Message = { blocks?: unknown[] };

async function searchAs(userId: string, text: string): Promise<Message> {
  const { post } = await command(stack, text, { userId });
  return post.body as Message;
}

/** Clicks Export CSV and waits for the file to be completed into a conversation; returns what happened. */
async function exportFrom(message: Message, userId = admin) {
  const callsBefore = stack.slack.calls.length;
  const clicked = await click(stack, message, 'Export CSV', { userId });
  const answer = await waitPostTo(stack, clicked.responseUrl);
  const completed = await stack.slack.waitFor(
    (c) => c.method === 'files.completeUploadExternal' && stack.slack.calls.indexOf(c) >= callsBefore,
  );
  // The final update ("Export done") comes right after the completion.
  const done = await stack.slack.waitFor(
    (c) =>
      c.method === 'chat.update' &&
      stack.slack.calls.indexOf(c) > stack.slack.calls.indexOf(completed) &&
      String(c.body.text).startsWith('Export done'),
  );
  const calls = stack.slack.calls.slice(callsBefore);
  const file = [...stack.slack.files.values()].find((f) => f.fileId === fileIdOf(completed));
  if (!file?.bytes) throw new Error('no uploaded file');
  return { answer, completed, done, calls, file, csv: file.bytes.toString('utf8') };
}

function fileIdOf(call: RecordedCall): string {
  const files = call.body.files as { id: string }[];
  return files[0]?.id ?? '';
}

describe('export CSV', () => {
  it('streams more than one large page into a CSV in the requester’s DM, with progress in place', async () => {
    const message = await searchAs(admin, 'creds domain bulk.example limit:1500');
    stack.sim.log.clear();
    const { answer, completed, done, calls, file, csv } = await exportFrom(message);

    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(textOf(answer.body)).toContain('Exporting up to 1,500 rows');

    // Two pages of 750: equal sizes (the API wants the same size on every page), little waste.
    const bodies = credsBodies(stack);
    expect(bodies).toHaveLength(2);
    for (const b of bodies) {
      const { from: _from, ...rest } = b;
      expect(rest).toEqual({ query: { type: 'domain', fqdn: 'bulk.example' }, size: 750 });
    }
    expect(contractProblems(stack.sim.log.entries.map(fromSimLog))).toEqual([]);

    // The DM opened with the requester, never the channel.
    const open = calls.find((c) => c.method === 'conversations.open');
    expect(open?.body.users).toBe(admin);
    const dm = (open?.response as { channel?: { id: string } } | undefined)?.channel?.id;
    expect(dm).toMatch(/^D/);
    expect(completed.body.channel_id).toBe(dm);
    expect(completed.body.channel_id).not.toBe(SEEDED_CHANNELS.general);
    expect(file.channelId).toBe(dm);

    // Progress: posted in the DM, updated in place (not per row), then marked done.
    const progress = calls.find((c) => c.method === 'chat.postMessage');
    expect(progress?.body.channel).toBe(dm);
    const updates = calls.filter((c) => c.method === 'chat.update');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThan(5);
    const progressTs = (progress?.response as { ts?: string } | undefined)?.ts;
    expect(updates.every((u) => u.body.ts === progressTs)).toBe(true);
    expect(String(done.body.text)).toContain('Export done: 1,500 rows');

    // The announced length is the exact byte count, and the file parses back.
    const announced = calls.find((c) => c.method === 'files.getUploadURLExternal');
    expect(Number(announced?.body.length)).toBe(Buffer.byteLength(csv));
    expect(file.filename).toMatch(/^vigil-credentials-domain-bulk\.example-\d{8}-\d{4}\.csv$/);
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(1501);
    expect(rows[1]?.[1]).toBe('user0@bulk.example');
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(1500);

    // Audited; the private folder is gone.
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: admin, action: 'credentials.export' });
    expect(entry?.detail).toContain('1500 rows delivered');
    expect((await readdir(tmpdir())).filter((f) => f.startsWith('vigil-export-'))).toEqual([]);
  });

  it('escapes commas, quotes and newlines, and neutralises formula injection in every cell', async () => {
    addCredential(stack, {
      identity_name: '=HYPERLINK("http://evil.example")@inject.example',
      domain: 'inject.example',
      hash: "+cmd|' /C calc'!A0",
      hash_type: '@SUM(1)',
      source_id: '-2+3',
      source: {
        id: '-2+3',
        name: 'Combo, "quoted"\nsecond line',
        description_en: null,
        description_fr: null,
        breached_at: null,
        leaked_at: null,
        is_alert_enabled: false,
        pii_tags: null,
        url: null,
      },
      auth_domains: ['\tlogin.inject.example', 'ok.example'],
      urls: ['\rhttps://inject.example/login'],
    });
    const message = await searchAs(admin, 'creds domain inject.example include:auth_domains,urls');
    const { csv } = await exportFrom(message);
    const rows = parse(csv) as string[][];
    expect(rows).toHaveLength(2);
    const row = Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, rows[1]?.[i]]));
    expect(row).toMatchObject({
      identity: '\'=HYPERLINK("http://evil.example")@inject.example',
      value: "'+cmd|' /C calc'!A0",
      hash_type: "'@SUM(1)",
      source_id: "'-2+3",
      source_name: 'Combo, "quoted"\nsecond line',
      auth_domains: "'\tlogin.inject.example ok.example",
      urls: "'\rhttps://inject.example/login",
    });
    expect(csv).toContain('"Combo, ""quoted""\nsecond line"');
  });

  it('is refused to a member while only admins may export, saying who may', async () => {
    const message = await searchAs(SEEDED_USERS.member, 'creds domain acme.example');
    stack.sim.log.clear();
    const clicked = await click(stack, message, 'Export CSV', { userId: SEEDED_USERS.member });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('only workspace admins may export leaked credentials as CSV');
    expect(credsBodies(stack)).toHaveLength(0);
  });

  it('refuses a second export by the same user while one runs, politely', async () => {
    const message = await searchAs(admin, 'creds domain bulk.example limit:20');
    // The first export's search is slow, so the second click lands while it runs.
    stack.sim.faults.add({ path: /credentials\/global\/_search$/, times: 1, response: { delayMs: 1500 } });
    const callsBefore = stack.slack.calls.length;
    const first = await click(stack, message, 'Export CSV', { userId: admin });
    await waitPostTo(stack, first.responseUrl);
    const second = await click(stack, message, 'Export CSV', { userId: admin });
    const refused = await waitPostTo(stack, second.responseUrl);
    expect(refused.body.text).toBe(
      'You already have a credentials export running. It arrives in your direct messages with Vigil when it is done; start another one after that.',
    );
    await stack.slack.waitFor(
      (c) => c.method === 'files.completeUploadExternal' && stack.slack.calls.indexOf(c) >= callsBefore,
    );
    await stack.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        stack.slack.calls.indexOf(c) >= callsBefore &&
        String(c.body.text).startsWith('Export done'),
    );
    // Once it is done, the next export is welcome.
    const third = await exportFrom(message);
    expect(String(third.done.body.text)).toContain('Export done: 20 rows');
  });

  it('a failed upload is told in the DM and to the clicker, and frees the slot and the temporary file', async () => {
    const message = await searchAs(admin, 'creds domain bulk.example limit:30');
    stack.slack.failNext('upload', { status: 500, error: 'internal_error' });
    const callsBefore = stack.slack.calls.length;
    const clicked = await click(stack, message, 'Export CSV', { userId: admin });
    const error = await waitPostTo(stack, clicked.responseUrl, 2);
    expect(textOf(error.body)).toContain('Slack refused the file upload (HTTP 500)');
    const failed = await stack.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        stack.slack.calls.indexOf(c) >= callsBefore &&
        String(c.body.text).includes('failed'),
    );
    expect(String(failed.body.text)).toContain('Slack refused the file upload');
    // Nothing was completed into any conversation.
    const completed = stack.slack.calls
      .slice(callsBefore)
      .filter((c) => c.method === 'files.completeUploadExternal');
    expect(completed).toHaveLength(0);
    expect((await readdir(tmpdir())).filter((f) => f.startsWith('vigil-export-'))).toEqual([]);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry?.detail).toContain('failed after 30 rows');
    const again = await exportFrom(message);
    expect(String(again.done.body.text)).toContain('Export done: 30 rows');
  });
});
