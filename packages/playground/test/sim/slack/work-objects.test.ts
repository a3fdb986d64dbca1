/**
 * The fake's Work Object methods hold to Slack's published shapes: `chat.unfurl` (by message or by unfurl id,
 * with `metadata.entities`) and `entity.presentDetails` (metadata or an error), entities as the node SDK's
 * `EntityMetadata` declares them.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, SEEDED_CHANNELS, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callJson } from './helpers.js';

const fake: FakeSlack = await startFakeSlack();
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const entity = (over: Record<string, unknown> = {}) => ({
  entity_type: 'slack#/entities/incident',
  url: 'https://app.flare.io/#/feed/1/event/a%2Fb%2Fc',
  app_unfurl_url: 'https://app.flare.io/#/feed/1/event/a%2Fb%2Fc',
  external_ref: { id: 'a/b/c', type: 'flare_event' },
  entity_payload: {
    attributes: { title: { text: 'An event' } },
    fields: { status: { value: 'Open' }, date_created: { value: 1764000000 } },
    custom_fields: [{ key: 'tags', label: 'Tags', type: 'array', value: [] }],
  },
  ...over,
});

describe('chat.unfurl', () => {
  it('takes entities by message or by unfurl id', async () => {
    const byMessage = await callJson(fake, 'chat.unfurl', {
      channel: SEEDED_CHANNELS.general,
      ts: '1764000000.000100',
      metadata: { entities: [entity()] },
    });
    expect(byMessage.body).toEqual({ ok: true });
    const byId = await callJson(fake, 'chat.unfurl', {
      unfurl_id: 'U1',
      source: 'composer',
      metadata: { entities: [entity()] },
    });
    expect(byId.body).toEqual({ ok: true });
  });

  it('refuses what the published shapes do not allow, with a pointer to each problem', async () => {
    const bad = await callJson(fake, 'chat.unfurl', {
      channel: SEEDED_CHANNELS.general,
      ts: '1764000000.000100',
      metadata: {
        entities: [
          entity({
            app_unfurl_url: undefined,
            colour: 'red',
            entity_payload: {
              attributes: { title: { text: 'x' } },
              fields: { owner: { value: 'me' }, date_created: { value: '2026-11-01' } },
            },
          }),
        ],
      },
    });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.error).toBe('invalid_metadata');
    const problems = (bad.body.errors as string[]).join('\n');
    expect(problems).toContain('/metadata/entities/0/app_unfurl_url is required');
    expect(problems).toContain('/metadata/entities/0/colour is not a property');
    expect(problems).toContain('fields/owner is not a field of slack#/entities/incident');
    expect(problems).toContain('fields/date_created/value must be a number');
    fake.takeRefusals();
    const neither = await callJson(fake, 'chat.unfurl', { metadata: { entities: [entity()] } });
    expect(neither.body.error).toBe('invalid_arguments');
    fake.takeRefusals();
  });
});

describe('entity.presentDetails', () => {
  it('takes metadata or an error with a known status, once per trigger', async () => {
    const trigger = fake.triggerId();
    const { app_unfurl_url: _u, ...panel } = entity();
    expect(
      (await callJson(fake, 'entity.presentDetails', { trigger_id: trigger, metadata: panel })).body,
    ).toEqual({
      ok: true,
    });
    expect(
      (await callJson(fake, 'entity.presentDetails', { trigger_id: trigger, metadata: panel })).body.error,
    ).toBe('exchanged_trigger_id');
    const refused = await callJson(fake, 'entity.presentDetails', {
      trigger_id: fake.triggerId(),
      error: { status: 'nope' },
    });
    expect(refused.body.error).toBe('invalid_arguments');
    fake.takeRefusals();
  });
});
