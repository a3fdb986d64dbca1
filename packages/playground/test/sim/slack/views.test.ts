import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../../test/support/manual-clock.js';
import {
  type FakeSlack,
  SEEDED_USERS,
  startFakeSlack,
  TRIGGER_TTL_MS,
} from '../../../src/sim/slack/index.js';
import { callForm, callJson, section } from './helpers.js';

const clock = new ManualClock();
const fake: FakeSlack = await startFakeSlack({ clock });
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const modal = (extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  callback_id: 'creds_password',
  title: { type: 'plain_text', text: 'Password search' },
  submit: { type: 'plain_text', text: 'Search' },
  private_metadata: '{"ctx":"abc"}',
  blocks: [section('Loading…')],
  ...extra,
});

describe('views.open', () => {
  it('opens a modal with a fresh trigger and answers the view as Slack does', async () => {
    const { body } = await callJson(fake, 'views.open', { trigger_id: fake.triggerId(), view: modal() });
    expect(body.ok).toBe(true);
    expect(body.view).toMatchObject({
      type: 'modal',
      team_id: 'T0001',
      callback_id: 'creds_password',
      private_metadata: '{"ctx":"abc"}',
      state: { values: {} },
      previous_view_id: null,
      app_id: 'A0VIGIL01',
    });
    const view = body.view as { id: string; root_view_id: string; hash: string };
    expect(view.id).toMatch(/^V/);
    expect(view.root_view_id).toBe(view.id);
    expect(fake.views.get(view.id)?.hash).toBe(view.hash);
  });

  it('accepts a trigger in Slack format by form, once', async () => {
    const trigger = '398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect((await callForm(fake, 'views.open', { trigger_id: trigger, view: modal() })).body.ok).toBe(true);
    expect((await callForm(fake, 'views.open', { trigger_id: trigger, view: modal() })).body.error).toBe(
      'exchanged_trigger_id',
    );
  });

  it('refuses a trigger older than 3 seconds, a malformed one, and none', async () => {
    const trigger = fake.triggerId();
    clock.advance(TRIGGER_TTL_MS + 1);
    expect((await callJson(fake, 'views.open', { trigger_id: trigger, view: modal() })).body.error).toBe(
      'expired_trigger_id',
    );
    expect((await callJson(fake, 'views.open', { trigger_id: 'nope', view: modal() })).body.error).toBe(
      'invalid_trigger_id',
    );
    expect((await callJson(fake, 'views.open', { view: modal() })).body.error).toBe('invalid_arguments');
  });

  it('refuses more than 100 blocks, a long title and oversized private_metadata with invalid_arguments', async () => {
    const blocks = Array.from({ length: 101 }, (_, i) => section(`b${i}`));
    const tooMany = await callJson(fake, 'views.open', {
      trigger_id: fake.triggerId(),
      view: modal({ blocks }),
    });
    expect(tooMany.body).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(tooMany.body.errors).toEqual(['no more than 100 items allowed [json-pointer:/view/blocks]']);
    const hundred = await callJson(fake, 'views.open', {
      trigger_id: fake.triggerId(),
      view: modal({ blocks: blocks.slice(0, 100) }),
    });
    expect(hundred.body.ok).toBe(true);
    const bad = await callJson(fake, 'views.open', {
      trigger_id: fake.triggerId(),
      view: modal({
        title: { type: 'plain_text', text: 'x'.repeat(25) },
        private_metadata: 'm'.repeat(3001),
      }),
    });
    expect(bad.body.errors).toEqual([
      'must be less than 25 characters [json-pointer:/view/title/text]',
      'must be less than 3001 characters [json-pointer:/view/private_metadata]',
    ]);
  });

  it('requires a submit button when the modal has inputs', async () => {
    const input = {
      type: 'input',
      block_id: 'pw',
      label: { type: 'plain_text', text: 'Password' },
      element: { type: 'plain_text_input', action_id: 'value' },
    };
    const { body } = await callJson(fake, 'views.open', {
      trigger_id: fake.triggerId(),
      view: modal({ submit: undefined, blocks: [input] }),
    });
    expect(body.error).toBe('invalid_arguments');
  });
});

describe('views.update, views.push, views.publish', () => {
  it('updates by view_id, and refuses a stale hash with hash_conflict', async () => {
    const opened = await callJson(fake, 'views.open', { trigger_id: fake.triggerId(), view: modal() });
    const { id, hash } = opened.body.view as { id: string; hash: string };
    clock.advance(10_000); // updates need no trigger: long work may finish well after the 3 s
    const updated = await callJson(fake, 'views.update', {
      view_id: id,
      hash,
      view: modal({ blocks: [section('Done')] }),
    });
    expect(updated.body).toMatchObject({ ok: true, view: { id, blocks: [section('Done')] } });
    expect((updated.body.view as { hash: string }).hash).not.toBe(hash);
    const stale = await callJson(fake, 'views.update', { view_id: id, hash, view: modal() });
    expect(stale.body.error).toBe('hash_conflict');
    expect((await callJson(fake, 'views.update', { view_id: 'V0NOPE', view: modal() })).body.error).toBe(
      'not_found',
    );
  });

  it('pushes a view on a fresh trigger', async () => {
    const { body } = await callJson(fake, 'views.push', { trigger_id: fake.triggerId(), view: modal() });
    expect(body.ok).toBe(true);
  });

  it('publishes one Home view per user', async () => {
    const home = { type: 'home', blocks: [section('Connection: healthy')] };
    const first = await callJson(fake, 'views.publish', { user_id: SEEDED_USERS.admin, view: home });
    expect(first.body).toMatchObject({ ok: true, view: { type: 'home' } });
    const second = await callJson(fake, 'views.publish', {
      user_id: SEEDED_USERS.admin,
      view: { ...home, blocks: [section('v2')] },
    });
    expect((second.body.view as { id: string }).id).toBe((first.body.view as { id: string }).id);
    expect(fake.homeView(SEEDED_USERS.admin)?.view.blocks).toEqual([section('v2')]);
    expect((await callJson(fake, 'views.publish', { user_id: 'U0NOBODY', view: home })).body.error).toBe(
      'user_not_found',
    );
    expect(
      (await callJson(fake, 'views.publish', { user_id: SEEDED_USERS.admin, view: modal() })).body.error,
    ).toBe('invalid_arguments');
  });
});
