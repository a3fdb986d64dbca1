/** Help and App Home list the commands of policies, assignments, recommendations, upload, report, tenants. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const COMMANDS = ['policies', 'assignments', 'recommendations', 'upload', 'report', 'tenants'];

describe('help and App Home', () => {
  it('`/vigil help` lists each command, and each has its own help', async () => {
    const res = await stack.sender.slashCommand({ text: 'help', responseUrl: stack.slack.responseUrl() });
    const text = textOf(res.body);
    for (const c of COMMANDS) expect(text).toContain(`/vigil ${c}`);
    const upload = await stack.sender.slashCommand({
      text: 'help upload',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(upload.body)).toContain('Send to sandbox');
  });

  it('App Home lists them', async () => {
    const res = await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    expect(res.status).toBe(200);
    const published = await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && c.body.user_id === SEEDED_USERS.member,
    );
    expect(published.response.ok).toBe(true);
    const text = textOf(published.body);
    expect(text).toContain('*What you can do*');
    for (const c of COMMANDS) expect(text).toContain(`/vigil ${c}`);
    expect(text).toContain('Send to sandbox');
  });
});
