/**
 * One unreadable subscription record in the real SQLite file (bytes written straight into it): the channel's
 * other digest still lists and posts, its alerts still list, and an admin removes the bad one from Slack.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import { sqlite } from '../../store/support/backends.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { command, SEEDED_USERS, startEventsStack } from '../events/support/events-stack.js';

const START = Date.UTC(2026, 5, 10, 6, 0);
const admin = { userId: SEEDED_USERS.admin };
const textOf = (post: { body: unknown }) => JSON.stringify(post.body);

describe('an unreadable digest record', () => {
  let stack: Stack;

  beforeEach(async () => {
    stack = await startEventsStack({ clock: new ManualClock(START) });
  });
  afterEach(async () => {
    await stack.close();
  });

  it('harms only itself: the rest lists and runs, and an admin removes it', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always', admin);
    await command(stack, 'digest add identifiers:3002 tz:UTC at:10:00 always', admin);
    await command(stack, 'alerts add identifiers:3001', admin);
    const [good, bad] = await stack.repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    if (!good || !bad) throw new Error('digests not created');
    await sqlite(join(stack.dataDir, 'vigil.sqlite'), 'UPDATE keyv SET value = ? WHERE key = ?', [
      '{"value":{"id":',
      `vigil:subscription:${bad.id}`,
    ]);

    const list = await command(stack, 'digest list');
    expect(textOf(list.post)).toContain(`\`${good.id}\``);
    expect(textOf(list.post)).not.toMatch(/could not reach its storage|Reference/);
    // Said, not hidden: the damaged one is named with the command that removes it.
    expect(textOf(list.post)).toContain(
      `could not be read (its stored record is damaged) and is skipped: \`${bad.id}\``,
    );
    expect(textOf(list.post)).toContain(`/vigil digest remove ${bad.id}`);
    const alerts = await command(stack, 'alerts list');
    expect(textOf(alerts.post)).toContain('identifier 3001');

    const refused = await command(stack, `digest remove ${bad.id}`, { userId: SEEDED_USERS.member });
    expect(textOf(refused.post)).not.toContain('removed');
    const removed = await command(stack, `digest remove ${bad.id}`, { userId: SEEDED_USERS.admin });
    expect(textOf(removed.post)).toContain(`Digest \`${bad.id}\` removed`);
    expect(await stack.repos.digestSubscriptions.unreadableIds(DEFAULT_TEAM_ID)).toEqual([]);
    const after = await command(stack, 'digest list');
    expect(textOf(after.post)).not.toContain('could not be read');
    expect(stack.logs.filter((l) => l.includes('unreadable record set aside'))).toHaveLength(1);
  });

  it('shows Remove beside a damaged digest or alert subscription only to whom may remove it (admins)', async () => {
    await command(stack, 'digest add identifiers:3001 tz:UTC at:09:00 always', admin);
    await command(stack, 'alerts add identifiers:3001', admin);
    const repos = stack.repos;
    const [bad] = await repos.digestSubscriptions.list(DEFAULT_TEAM_ID);
    const [badAlert] = await repos.alertSubscriptions.list(DEFAULT_TEAM_ID);
    if (!bad || !badAlert) throw new Error('subscriptions not created');
    const file = join(stack.dataDir, 'vigil.sqlite');
    await sqlite(file, 'UPDATE keyv SET value = ? WHERE key = ?', [
      '{"value":{"id":',
      `vigil:subscription:${bad.id}`,
    ]);
    await sqlite(file, 'UPDATE keyv SET value = ? WHERE key = ?', [
      '{"value":{"id":',
      `vigil:alert:${badAlert.id}`,
    ]);

    for (const [list, id] of [
      ['digest list', bad.id],
      ['alerts list', badAlert.id],
    ] as const) {
      // A plain member is told of the damaged one and who removes it, without a button they may not use.
      const asMember = await command(stack, list, { userId: SEEDED_USERS.member });
      expect(textOf(asMember.post)).toContain(
        `could not be read (its stored record is damaged) and is skipped: \`${id}\``,
      );
      expect(textOf(asMember.post)).toContain('An admin removes it');
      expect(textOf(asMember.post)).not.toContain('unreadable_remove');
      const asAdmin = await command(stack, list, admin);
      expect(textOf(asAdmin.post)).toContain('unreadable_remove');
      expect(textOf(asAdmin.post)).toContain(`Remove ${id}`);
    }
  });
});
