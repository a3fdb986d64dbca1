/**
 * The audit trail through the real HTTP stack: every audited action of the flows below appears exactly once in
 * the log as a structured line (`"audit": true`, workspace, user, action, every target, outcome, surface); a bulk
 * action names each target; `audit` reads as words, not action codes; `audit export` delivers every entry as a
 * CSV file in the admin's DM, with no cell a spreadsheet would run as a formula.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import {
  addOpenEvents,
  click,
  command,
  IDENTIFIER,
  startEventsStack,
  waitPostTo,
} from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import type { Stack } from '../support/stack.js';
import { until } from '../support/until.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

type AuditLine = Record<string, unknown> & {
  audit: true;
  action: string;
  targets: string[];
  surface: string;
};

function auditLines(): AuditLine[] {
  return stack.logs
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l): l is AuditLine => l.audit === true);
}

describe('the audit trail', () => {
  it('writes each audited action once as a structured line, with its surface and every target', async () => {
    const admin = SEEDED_USERS.admin;
    // A command: who may act.
    const set = await command(stack, 'settings act admins', { userId: admin });
    expect(String(set.post.body.text)).toMatch(/admins .*may ignore/i);

    // Buttons: ignore one event, then every event on a page (a bulk action), then share a page.
    const fresh = addOpenEvents(stack, IDENTIFIER.email, 3);
    const one = await command(stack, `events ${IDENTIFIER.domain} status:open size:2`, { userId: admin });
    const ignoredOne = await click(stack, { blocks: one.post.body.blocks as unknown[] }, 'Ignore', {
      userId: admin,
    });
    await waitPostTo(stack, ignoredOne.responseUrl);
    const page = await command(stack, `events ${IDENTIFIER.email} status:open size:3 since:30d`, {
      userId: admin,
    });
    const bulk = await click(
      stack,
      { blocks: page.post.body.blocks as unknown[] },
      'Ignore all on this page',
      {
        userId: admin,
      },
    );
    await waitPostTo(stack, bulk.responseUrl);
    const shown = await command(stack, `events ${IDENTIFIER.keyword} size:2`, { userId: admin });
    await click(stack, { blocks: shown.post.body.blocks as unknown[] }, 'Share in channel', {
      userId: admin,
    });
    await stack.slack.waitFor('chat.postMessage');
    await stack.tracker.idle();

    const lines = auditLines();
    const byAction = (action: string) => lines.filter((l) => l.action === action);
    expect(byAction('settings.actors')).toHaveLength(1);
    expect(byAction('settings.actors')[0]).toMatchObject({
      workspace: stack.workspaceId,
      user: admin,
      targets: ['admins'],
      outcome: 'done',
      surface: 'command',
    });
    const ignores = byAction('event.ignore');
    expect(ignores).toHaveLength(2);
    expect(ignores.every((l) => l.surface === 'button' && l.outcome === 'done')).toBe(true);
    const bulkLine = ignores.find((l) => l.count === 3);
    expect(bulkLine?.targets).toHaveLength(3);
    expect(new Set(bulkLine?.targets)).toEqual(new Set(fresh));
    expect(byAction('events.share')).toHaveLength(1);
    expect(byAction('events.share')[0]?.surface).toBe('button');

    // Once each: the store holds as many entries as the log has lines.
    const stored = await stack.repos.audit.recent(stack.workspaceId, 100);
    expect(stored).toHaveLength(lines.length);
  }, 60_000);

  it('reads as words in `audit`, and exports every entry as CSV to the DM', async () => {
    const admin = SEEDED_USERS.admin;
    // An entry whose title would run as a formula in a spreadsheet.
    await stack.repos.audit.append({
      teamId: stack.workspaceId,
      userId: admin,
      action: 'digest.add',
      target: 'd1a2b3c4',
      detail: 'channel C0123ABCD',
      title: '=HYPERLINK("https://evil.example","x")',
    });
    const listed = await command(stack, 'audit', { userId: admin });
    const words = JSON.stringify(listed.post.body.blocks);
    expect(words).toContain('subscribed a channel to the daily digest');
    expect(words).toContain('changed who may ignore, remediate or triage events');
    expect(words).not.toMatch(/`(digest\.add|event\.ignore|settings\.actors|events\.share)`/);

    const before = stack.slack.callsTo('files.completeUploadExternal').length;
    const exported = await command(stack, 'audit export', { userId: admin });
    const told = await until('the export to be told', () =>
      stack.slack.postsTo(exported.responseUrl).find((p) => /direct messages/.test(String(p.body.text))),
    );
    expect(String(told.body.text)).toMatch(/audit log \(\d+ entries\) is in your direct messages/);
    const uploads = stack.slack.callsTo('files.completeUploadExternal');
    expect(uploads.length).toBe(before + 1);
    const file = [...stack.slack.files.values()].at(-1);
    const csv = file?.bytes?.toString('utf8') ?? '';
    expect(csv.split('\n')[0]).toBe('time,workspace,user,action,targets,count,outcome,surface,detail,title');
    expect(csv).toContain('settings.actors');
    expect(csv).toContain("'=HYPERLINK");
    expect(csv).not.toMatch(/(^|,)"?=HYPERLINK/m);
    expect(auditLines().filter((l) => l.action === 'audit.export')).toHaveLength(1);
  }, 60_000);

  it('refuses the export to a member who is not an admin', async () => {
    const uploads = stack.slack.callsTo('files.completeUploadExternal').length;
    const refused = await command(stack, 'audit export', { userId: SEEDED_USERS.member });
    await stack.tracker.idle();
    const answer = await waitPostTo(stack, refused.responseUrl, 1);
    expect(`${String(answer.body.text)} ${textOf(answer.body)}`).toMatch(/admin/i);
    expect(stack.slack.callsTo('files.completeUploadExternal').length).toBe(uploads);
  });
});
