/**
 * Upgrades keep every record: the store release 0.1.0 wrote (test/fixtures/store-0.1.0, made by its own
 * script with that release's code) is opened by this build through the whole stack, and everything in it
 * still works: the sealed API key and installation open, settings apply, the digest and the alert
 * subscription list and run from their stored cursors, the audit and event state read back, and the buttons
 * of the alert, the digest and the search it posted still act.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../src/domain/subscriptions/ticker.js';
import { actionCalls, click, command, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf as blocksText } from '../harness/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'store-0.1.0');
const DAY = 24 * 3600_000;
const manual: Ticker = { every: () => ({ cancel() {} }) };

interface Manifest {
  madeAt: number;
  workspaceId: string;
  apiKey: string;
  tenantId: number;
  simPort: number;
  installation: string;
  digestId: string;
  alertId: string;
  ignored: string;
  digestChannel: string;
}

const textOf = (post: { body: unknown }) => JSON.stringify(post.body);

/** The contexts behind the messages the fixture's story posted (ids of its store, which never changes). */
const POSTED = { alert: 'BnU9J6VF2ajg', digest: 'nqT-qXhMjBch', search: 'daUFvNobDQ4S' } as const;

/** A message with one button pointing at a stored context, as the posted one had. */
function withButton(actionId: string, value: string, blockId: string) {
  const text = { type: 'plain_text', text: actionId };
  return {
    blocks: [
      {
        type: 'actions',
        block_id: blockId,
        elements: [{ type: 'button', action_id: actionId, text, value }],
      },
    ],
  };
}

describe('the store written by release 0.1.0', () => {
  let stack: Stack;
  let clock: ManualClock;
  let manifest: Manifest;
  let dir: string;

  beforeEach(async () => {
    manifest = JSON.parse(await readFile(join(FIXTURE, 'manifest.json'), 'utf8')) as Manifest;
    dir = await mkdtemp(join(tmpdir(), 'vigil-upgrade-'));
    // A copy: the committed file stays as the release wrote it.
    await copyFile(join(FIXTURE, 'vigil.sqlite'), join(dir, 'vigil.sqlite'));
    clock = new ManualClock(manifest.madeAt + 60_000);
    stack = await startStack({
      env: {
        VIGIL_STORE: `sqlite://${join(dir, 'vigil.sqlite')}`,
        VIGIL_ENCRYPTION_KEY: (await readFile(join(FIXTURE, 'key.base64'), 'utf8')).trim(),
      },
      connect: false,
      sim: { port: manifest.simPort, emptyPageEvery: 0 },
      clock,
      alertTicker: manual,
    });
    const key = stack.sim.keys[0];
    if (key) key.apiKey = manifest.apiKey;
  });
  afterEach(async () => {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens the sealed connection and installation, and reads settings, audit and event state', async () => {
    const status = await command(stack, 'status', { userId: SEEDED_USERS.admin });
    expect(textOf(status.post)).toContain(String(manifest.tenantId));
    expect(textOf(status.post)).not.toMatch(/not connected|could not/i);

    const installation = await stack.repos.installations.fetchInstallation({
      teamId: manifest.installation,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(installation.bot?.token).toBe('xoxb-fixture-bot-token');

    // `settings reveal everyone` still applies: a member may reveal.
    const settings = await stack.repos.settings.get(manifest.workspaceId);
    expect(settings.permissions.reveal).toBe('everyone');
    const shown = await command(stack, 'settings', { userId: SEEDED_USERS.admin });
    expect(textOf(shown.post)).toMatch(/[Rr]eveal[^"]*everyone/);

    const audit = await command(stack, 'audit', { userId: SEEDED_USERS.admin });
    expect(textOf(audit.post)).toContain('subscribed a channel to the daily digest');

    const state = await stack.repos.eventStates.get(manifest.workspaceId, manifest.ignored);
    expect(state).toMatchObject({ generation: 1, last: { action: 'ignore', by: SEEDED_USERS.member } });
  });

  it('lists the digest and the alert subscription, and runs both from their stored state', async () => {
    const digests = await command(stack, 'digest list');
    expect(textOf(digests.post)).toContain(`\`${manifest.digestId}\``);
    const alerts = await command(stack, 'alerts list');
    expect(textOf(alerts.post)).toContain(`\`${manifest.alertId}\``);

    // The next day's digest: only what is new since the stored cursor.
    clock.set(manifest.madeAt + 60_000);
    stack.sim.state.addEvent({
      tenantId: manifest.tenantId,
      identifierIds: [3001],
      createdAt: clock.now(),
      severity: 'high',
      uid: 'leak/upgrade/new',
    });
    clock.set(manifest.madeAt + DAY);
    await stack.runDigests();
    const digest = stack.slack
      .messages(manifest.digestChannel)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_digest');
    expect(digest).toHaveLength(1);
    expect(JSON.stringify(digest[0]?.blocks)).toContain('leak/upgrade/new');
    expect(JSON.stringify(digest[0]?.blocks)).not.toContain('leak/fixture/digested');

    // A new severe event is alerted once, in the subscription's channel.
    stack.sim.state.addEvent({
      tenantId: manifest.tenantId,
      identifierIds: [3001],
      createdAt: clock.now(),
      severity: 'critical',
      type: 'stealer_log',
      uid: 'leak/upgrade/alerted',
    });
    clock.advance(120_000);
    await stack.runAlerts();
    const alerted = stack.slack
      .messages(SEEDED_CHANNELS.general)
      .filter((m) => (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert');
    expect(alerted.map((m) => JSON.stringify(m.blocks)).join()).toContain('leak/upgrade/alerted');
    expect(alerted.map((m) => JSON.stringify(m.blocks)).join()).not.toContain('leak/fixture/alerted');
  });

  it('acts from the buttons of the alert, the digest and the search it posted', async () => {
    // The alert was drawn before the event was ignored: its click is told so, and the alert redrawn.
    const late = await click(
      stack,
      withButton('event_ignore:0', `${POSTED.alert}:0`, 'event:0'),
      'event_ignore:0',
      { userId: SEEDED_USERS.admin },
    );
    expect(textOf(await waitPostTo(stack, late.responseUrl))).toContain('before your click');
    const alert = await waitPostTo(stack, late.responseUrl, 2);
    expect(textOf(alert)).toContain('"block_id":"alert:about"');
    expect(blocksText(alert.body)).toContain(`Ignored by <@${SEEDED_USERS.member}>`);

    // The digest's other event is ignored from it, and the digest drawn again as a digest.
    stack.sim.state.addEvent({
      tenantId: manifest.tenantId,
      identifierIds: [3001],
      createdAt: manifest.madeAt - 3600_000,
      severity: 'high',
      uid: 'leak/fixture/digested',
    });
    const ignore = await click(
      stack,
      withButton('event_ignore:1', `${POSTED.digest}:1`, 'event:1'),
      'event_ignore:1',
      { userId: SEEDED_USERS.admin },
    );
    const digest = await waitPostTo(stack, ignore.responseUrl);
    expect(textOf(digest)).toContain('"block_id":"digest:header"');
    expect(blocksText(digest.body)).toContain(`Ignored by <@${SEEDED_USERS.admin}>`);
    // The release's stored access token is still live on the store's clock, but this simulated API never issued
    // it: the first call is refused (401) and made again once with a new token. One action took effect.
    expect(actionCalls(stack).map((call) => call.status)).toEqual([401, 200]);

    // The search is shared in the channel.
    await click(stack, withButton('share_in_channel', POSTED.search, 'events:tail'), 'share_in_channel', {
      userId: SEEDED_USERS.admin,
    });
    await expect
      .poll(async () => (await stack.repos.audit.recent(manifest.workspaceId, 1))[0]?.action)
      .toBe('events.share');
    expect((await stack.repos.audit.recent(manifest.workspaceId, 1))[0]?.target).toBe('3001');
  });
});
