import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('smoke', () => {
  it('answers help in the ack and status through the response_url', async () => {
    const help = await stack.sender.slashCommand({
      text: 'help',
      userId: SEEDED_USERS.member,
      responseUrl: stack.slack.responseUrl(),
    });
    expect(help.status).toBe(200);
    expect(JSON.stringify(help.body)).toContain('/vigil');
    const responseUrl = stack.slack.responseUrl();
    const res = await stack.sender.slashCommand({ text: 'status', userId: SEEDED_USERS.member, responseUrl });
    expect(res.status).toBe(200);
    const post = await stack.slack.waitForPost(
      (p) => p.path.length > 0 && JSON.stringify(p.body).includes('connected'),
    );
    expect(textOf(post.body as never)).toContain('Organization');
  });

  it('links to the port Vigil really listens on when PORT=0 and no public URL is set', async () => {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text: 'connect', userId: SEEDED_USERS.admin, responseUrl });
    const post = await stack.slack.waitForPost((p) => JSON.stringify(p.body).includes('/connect/'));
    expect(JSON.stringify(post.body)).toContain(`http://localhost:${stack.vigil.port}/connect/`);
  });
});
