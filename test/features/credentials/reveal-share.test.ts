/**
 * Reveal, end to end: refused and allowed by the workspace's permission, shown only to the clicker, audited;
 * and the value never anywhere else: not in Share in channel, App Home, any other Slack message, the logs,
 * or the SQLite file.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, credsBodies, startCredsStack } from './support/creds-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const VALUE = 'Reveal-Me-Only-7f3a9c';
let stack: Stack;
let results: { blocks?: unknown[] };

beforeAll(async () => {
  stack = await startCredsStack({ clock });
  addCredential(stack, { identity_name: 'grace@reveal.example', hash: VALUE, hash_type: 'plaintext' });
  addCredential(stack, { identity_name: 'alan@reveal.example', hash: 'Other-Value-123456' });
  const { post } = await command(stack, 'creds domain reveal.example', { userId: SEEDED_USERS.admin });
  results = post.body as { blocks?: unknown[] };
});
afterAll(async () => {
  await stack?.close();
});

/** The reveal button of the row showing `identity`. */
function revealOf(identity: string): { blocks: unknown[] } {
  const blocks = (results.blocks ?? []) as { type: string; text?: { text?: string }; accessory?: unknown }[];
  const row = blocks.find((b) => b.type === 'section' && b.text?.text?.includes(identity));
  if (!row?.accessory) throw new Error(`no Reveal for ${identity}`);
  return { blocks: [row] };
}

describe('reveal', () => {
  it('is refused to a member while only admins may, and says who may', async () => {
    stack.sim.log.clear();
    const auditBefore = (await stack.repos.audit.recent(stack.workspaceId, 50)).length;
    const clicked = await click(stack, revealOf('grace@reveal.example'), 'Reveal', {
      userId: SEEDED_USERS.member,
    });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(textOf(answer.body)).toContain('only workspace admins may reveal leaked credential values');
    expect(textOf(answer.body)).toContain('/vigil settings reveal');
    expect(JSON.stringify(answer.body)).not.toContain(VALUE);
    // Refused before any API call; the attempt is audited as refused, and nothing was revealed.
    expect(credsBodies(stack)).toHaveLength(0);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 50);
    expect(audit).toHaveLength(auditBefore + 1);
    expect(audit[0]).toMatchObject({
      userId: SEEDED_USERS.member,
      action: 'permission.refused',
      target: 'reveal',
      outcome: 'refused',
    });
  });

  it('shows an admin the full value, ephemerally to them alone, re-fetching the page, and audits it', async () => {
    stack.sim.log.clear();
    clock.advance(60_000);
    const clicked = await click(stack, revealOf('grace@reveal.example'), 'Reveal', {
      userId: SEEDED_USERS.admin,
    });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(answer.body.response_type).toBe('ephemeral');
    expect(answer.body.replace_original).toBe(false);
    expect(textOf(answer.body)).toContain(`\`${VALUE}\``);
    expect(String(answer.body.text)).not.toContain(VALUE);
    // The same page, asked again (free within 10 minutes): the value came from the API, not the store.
    expect(credsBodies(stack)).toEqual([{ query: { type: 'domain', fqdn: 'reveal.example' }, size: 10 }]);
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({
      userId: SEEDED_USERS.admin,
      action: 'credential.reveal',
      at: clock.now(),
    });
    expect(entry?.detail).toContain('grace@reveal.example');
    expect(JSON.stringify(entry)).not.toContain(VALUE);
  });
});

describe('who may reveal', () => {
  it('follows `/vigil settings reveal …`: a member of the allowed user group may, after an admin says so', async () => {
    const set = await command(stack, 'settings reveal group:S0SECOPS1', { userId: SEEDED_USERS.admin });
    expect(set.post.body.response_type).toBe('ephemeral');
    expect((await stack.repos.settings.get(stack.workspaceId)).permissions.reveal).toEqual({
      usergroup: 'S0SECOPS1',
    });
    const member = SEEDED_USERS.member;
    const clicked = await click(stack, revealOf('alan@reveal.example'), 'Reveal', { userId: member });
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(textOf(answer.body)).toContain('`Other-Value-123456`');
    const [entry] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(entry).toMatchObject({ userId: member, action: 'credential.reveal' });
    await command(stack, 'settings reveal admins', { userId: SEEDED_USERS.admin });
  });
});

describe('the value goes nowhere else', () => {
  it('Share in channel posts the masked rows, with no Reveal or Export', async () => {
    const clicked = await click(stack, results, 'Share in channel', { userId: SEEDED_USERS.admin });
    const posted = await stack.slack.waitFor('chat.postMessage');
    expect(posted.body.channel).toBe(SEEDED_CHANNELS.general);
    expect(textOf(posted.body)).toContain('`grace@reveal.example`');
    expect(textOf(posted.body)).toContain('••••');
    expect(JSON.stringify(posted.body)).not.toContain(VALUE);
    expect(JSON.stringify(posted.body)).not.toMatch(/Reveal|Export CSV/);
    const done = await waitPostTo(stack, clicked.responseUrl);
    expect(done.body.delete_original).toBe(true);
  });

  it('App Home lists the audited reveal without the value', async () => {
    const res = await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin });
    expect(res.status).toBe(200);
    const home = await stack.slack.waitFor('views.publish');
    expect(JSON.stringify(home.body)).toContain('revealed the value of leaked credential');
    expect(JSON.stringify(home.body)).not.toContain(VALUE);
  });

  it('is in exactly one Slack message (the reveal), in no log line, and not in the SQLite files', async () => {
    const revealPosts = stack.slack.responseUrlPosts.filter((p) => p.rawBody.includes(VALUE));
    expect(revealPosts).toHaveLength(1);
    const everythingElse = [
      ...stack.slack.calls.map((c) => `${JSON.stringify(c.headers)}${c.rawBody}`),
      ...stack.slack.responseUrlPosts
        .filter((p) => !p.rawBody.includes('creds:revealed'))
        .map((p) => p.rawBody),
    ].join('\n');
    expect(everythingElse).not.toContain(VALUE);
    expect(stack.logs.join('\n')).not.toContain(VALUE);
    await stack.store.ping();
    const files = (await readdir(stack.dataDir)).filter((f) => f.startsWith('vigil.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = await readFile(join(stack.dataDir, f));
      expect(bytes.includes(Buffer.from(VALUE)), f).toBe(false);
      // The masked rows are there (the context), so the grep looks at the right file.
      if (f === 'vigil.sqlite') expect(bytes.length).toBeGreaterThan(0);
    }
    const all = await Promise.all(files.map((f) => readFile(join(stack.dataDir, f))));
    expect(all.some((b) => b.includes(Buffer.from('grace@reveal.example')))).toBe(true);
  });
});
