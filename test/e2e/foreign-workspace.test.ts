/**
 * Who may use this installation's workspace connection: only requests of the workspace it serves. A correctly
 * signed request whose authoritative team (Bolt's, per payload kind: `team_id` of a command, `team.id` of an
 * action, `view.app_installed_team_id` of a view, `authorizations[0]` of an event) is another workspace (a
 * Slack Connect channel, another workspace of an Enterprise Grid), or whose acting member belongs to another
 * workspace, gets a clear refusal and reaches neither the threat-intel API nor any form. In single-workspace
 * mode (bot token and API key from the environment) and in OAuth mode (each team its own installation only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_TEAM_ID,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import {
  blockActionPayload,
  getButton,
  interactionBody,
  newTriggerId,
  textOf,
  VERIFICATION_TOKEN,
} from '../harness/index.js';
import { OAUTH_ENV, type Stack, startStack } from '../support/stack.js';

type Json = Record<string, unknown>;

const REFUSED = /serves another Slack workspace|not installed in your Slack workspace/;

/** Teams that are not the one the single-workspace deployment serves (T0001). */
const OTHER = { teamId: 'T0OTHER01', userId: 'U0OTHER01' };
const GRID = { teamId: 'T0GRID002', enterpriseId: 'E0GRID001', userId: 'U0GRID001' };

/** What reached the person: the ack's own text, else the first post to the response_url. */
async function answerOf(stack: Stack, ack: { body: unknown }, responseUrl: string): Promise<string> {
  const inAck = textOf(ack.body) || String((ack.body as Json | undefined)?.text ?? '');
  if (REFUSED.test(inAck)) return inAck;
  const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl, 3_000);
  return `${String(post.body.text ?? '')}\n${textOf(post.body)}`;
}

/** Lets anything the request started run to its end before counting what it reached. */
const settle = () => new Promise((r) => setTimeout(r, 150));

function expectNoApiCall(stack: Stack, before: number): void {
  expect(stack.sim.log.entries.slice(before).map((e) => `${e.method} ${e.path}`)).toEqual([]);
}

describe('single-workspace mode (bot token and API key from the environment)', () => {
  let stack: Stack;
  beforeAll(async () => {
    const probe = await startSimApi();
    const key = probe.keys[0];
    await probe.close();
    if (!key) throw new Error('no simulated key');
    stack = await startStack({
      connect: false,
      env: { VIGIL_API_KEY: key.apiKey, VIGIL_TENANT_ID: String(key.defaultTenantId) },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    ['Slack Connect team', OTHER],
    ['other Enterprise Grid workspace', GRID],
  ])('refuses every command of a %s, without an API call', async (_name, actor) => {
    for (const text of ['creds domain acme.example', 'events 3001', 'status', 'tenants', 'creds password']) {
      const before = stack.sim.log.entries.length;
      const opens = stack.slack.callsTo('views.open').length;
      const responseUrl = stack.slack.responseUrl(undefined, actor.teamId);
      const ack = await stack.sender.slashCommand({ text, responseUrl, ...actor });
      expect(ack.status).toBe(200);
      const answer = await answerOf(stack, ack, responseUrl);
      expect(answer, text).toMatch(REFUSED);
      expect(answer).not.toMatch(/Reference|\(ref /);
      await settle();
      expectNoApiCall(stack, before);
      expect(stack.slack.callsTo('views.open').length, text).toBe(opens);
    }
  });

  it('still serves its own workspace', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', responseUrl });
    const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
    expect(String(post.body.text)).toMatch(/^Vigil is connected to tenant/);
  });

  async function ownResults(): Promise<Json> {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'events 3001 size:2', responseUrl });
    const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
    return post.body;
  }

  it('refuses buttons and menus of another workspace, and of a member from another workspace', async () => {
    const results = await ownResults();
    const ignore = getButton(results, 'Ignore');
    const menu = (results.blocks as Json[])
      .flatMap((b) => (b.accessory ? [b.accessory as Json] : ((b.elements as Json[] | undefined) ?? [])))
      .find((e) => e.type === 'overflow') as Json | undefined;
    const option = (menu?.options as Json[] | undefined)?.[0];
    if (!menu || !option) throw new Error('the results have no overflow menu');

    const payloads: [string, Json][] = [
      [
        'button, another team',
        blockActionPayload(
          {
            ...OTHER,
            actionId: ignore.action_id ?? '',
            value: ignore.value ?? '',
            ...(ignore.block_id ? { blockId: ignore.block_id } : {}),
            container: 'ephemeral',
            responseUrl: stack.slack.responseUrl(undefined, OTHER.teamId),
          },
          Math.floor(Date.now() / 1000),
        ),
      ],
      [
        'menu, another grid workspace',
        blockActionPayload(
          {
            ...GRID,
            actionId: String(menu.action_id),
            blockId: 'x',
            selectedOption: {
              text: String((option.text as Json).text),
              value: String(option.value),
            },
            container: 'ephemeral',
            responseUrl: stack.slack.responseUrl(undefined, GRID.teamId),
          },
          Math.floor(Date.now() / 1000),
        ),
      ],
    ];
    // Slack Connect: the click arrives with this workspace as `team`, from a member of another one.
    const connect = blockActionPayload(
      {
        userId: OTHER.userId,
        actionId: ignore.action_id ?? '',
        value: ignore.value ?? '',
        ...(ignore.block_id ? { blockId: ignore.block_id } : {}),
        container: 'ephemeral',
        responseUrl: stack.slack.responseUrl(),
      },
      Math.floor(Date.now() / 1000),
    );
    (connect.user as Json).team_id = OTHER.teamId;
    payloads.push(['button, a member of another team', connect]);

    for (const [name, payload] of payloads) {
      const before = stack.sim.log.entries.length;
      const responseUrl = String(payload.response_url);
      const ack = await stack.sender.send({
        body: interactionBody(payload),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(ack.status, name).toBe(200);
      expect(await answerOf(stack, ack, responseUrl), name).toMatch(REFUSED);
      await settle();
      expectNoApiCall(stack, before);
    }
  });

  it('refuses a view submission of another workspace (the password form) without searching', async () => {
    for (const actor of [OTHER, GRID]) {
      const before = stack.sim.log.entries.length;
      const ack = await stack.sender.viewSubmission({
        ...actor,
        callbackId: 'creds_password_search',
        privateMetadata: JSON.stringify({ c: SEEDED_CHANNELS.general }),
        values: { password: { value: { type: 'plain_text_input', value: 'P@ssw0rd-1' } } },
      });
      expect(ack.status).toBe(200);
      expect((ack.body as Json).response_action).toBe('update');
      expect(textOf(ack.body)).toMatch(REFUSED);
      await settle();
      expectNoApiCall(stack, before);
    }
  });

  it('refuses a message shortcut of another workspace, with no download', async () => {
    const before = stack.sim.log.entries.length;
    const downloads = stack.slack.downloads.length;
    const responseUrl = stack.slack.responseUrl(undefined, OTHER.teamId);
    const payload = {
      type: 'message_action',
      token: VERIFICATION_TOKEN,
      action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
      team: { id: OTHER.teamId, domain: 'other' },
      user: { id: OTHER.userId, username: 'other', team_id: OTHER.teamId, name: 'other' },
      channel: { id: SEEDED_CHANNELS.general, name: 'general' },
      is_enterprise_install: false,
      enterprise: null,
      callback_id: 'send_to_sandbox',
      trigger_id: newTriggerId(),
      response_url: responseUrl,
      message_ts: '1700000000.000200',
      message: { type: 'message', ts: '1700000000.000200', user: OTHER.userId, text: 'x', files: [] },
    };
    const ack = await stack.sender.send({
      body: interactionBody(payload),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(ack.status).toBe(200);
    expect(await answerOf(stack, ack, responseUrl)).toMatch(REFUSED);
    await settle();
    expectNoApiCall(stack, before);
    expect(stack.slack.downloads.length).toBe(downloads);
  });

  it('publishes no App Home for another workspace', async () => {
    const publishes = stack.slack.callsTo('views.publish').length;
    const res = await stack.sender.event({ type: 'app_home_opened', ...OTHER });
    expect(res.status).toBe(200);
    await settle();
    expect(stack.slack.callsTo('views.publish').length).toBe(publishes);
    expect(stack.logs.some((l) => l.includes('request refused') && l.includes(OTHER.teamId))).toBe(true);
  });
});

describe('OAuth mode: each team uses its own installation only', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        ...OAUTH_ENV,
      },
    });
    // T0001 is installed (and connected by the stack); T0OTHER01 never installed Vigil.
    await stack.repos.installations.storeInstallation({
      team: { id: DEFAULT_TEAM_ID, name: 'Vigil Test' },
      enterprise: undefined,
      user: { id: SEEDED_USERS.owner, token: undefined, scopes: undefined },
      bot: { token: 'xoxb-test-0001-vigil', scopes: ['commands'], id: 'B0001', userId: 'U0BOT0001' },
      isEnterpriseInstall: false,
      tokenType: 'bot',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers the installed team with its own connection', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'status', responseUrl });
    const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
    expect(String(post.body.text)).toMatch(/^Vigil is connected to tenant/);
  });

  it('refuses a team without an installation clearly, without an API call', async () => {
    for (const text of ['status', 'tenants', 'creds domain acme.example']) {
      const before = stack.sim.log.entries.length;
      const responseUrl = stack.slack.responseUrl(undefined, OTHER.teamId);
      const ack = await stack.sender.slashCommand({ text, responseUrl, ...OTHER });
      expect(ack.status).toBe(200);
      const answer = await answerOf(stack, ack, responseUrl);
      expect(answer, text).toMatch(/not installed in your Slack workspace/);
      expect(answer).not.toMatch(/Reference|\(ref /);
      await settle();
      expectNoApiCall(stack, before);
    }
  });

  it('refuses a member of another team acting through the installed team’s message', async () => {
    const own = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'events 3001 size:1', responseUrl: own });
    const results = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === own);
    const ignore = getButton(results.body, 'Ignore');
    const payload = blockActionPayload(
      {
        userId: OTHER.userId,
        actionId: ignore.action_id ?? '',
        value: ignore.value ?? '',
        ...(ignore.block_id ? { blockId: ignore.block_id } : {}),
        container: 'ephemeral',
        responseUrl: stack.slack.responseUrl(),
      },
      Math.floor(Date.now() / 1000),
    );
    (payload.user as Json).team_id = OTHER.teamId;
    const before = stack.sim.log.entries.length;
    const ack = await stack.sender.send({
      body: interactionBody(payload),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(await answerOf(stack, ack, String(payload.response_url))).toMatch(REFUSED);
    await settle();
    expectNoApiCall(stack, before);
  });
});
