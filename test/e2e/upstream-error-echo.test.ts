/**
 * Upstream error text is not ours to repeat: whatever the API echoes in an error (the password or hash a search
 * carried, a credential value it returned, a token), the reply gives the API's status and error code with a
 * summary in Vigil's words, and neither the reply nor any log line carries the echoed secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { addCredential, startCredsStack } from '../features/credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { withoutReferences } from '../support/references.js';
import type { Stack } from '../support/stack.js';

const PASSWORD = 'P@ssw0rd-1-secret';
const RECEIVED = 'Rcvd-Hash-0123456789abcdef';
const SEARCH = /\/v4\/credentials\/global\/_search$/;

let stack: Stack;
beforeAll(async () => {
  stack = await startCredsStack();
  addCredential(stack, { identity_name: 'grace@echo.example', hash: RECEIVED, hash_type: 'plaintext' });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
});

/** Where the logs and what Vigil sent to Slack stand now. */
function mark() {
  return {
    logs: stack.logs.length,
    calls: stack.slack.calls.length,
    posts: stack.slack.responseUrlPosts.length,
  };
}

/** Everything Vigil logged and sent to Slack since `from`. */
function leaked(from: ReturnType<typeof mark>): string {
  return [
    ...stack.logs.slice(from.logs),
    ...stack.slack.calls.slice(from.calls).map((c) => c.rawBody),
    ...stack.slack.responseUrlPosts.slice(from.posts).map((p) => p.rawBody),
  ].join('\n');
}

describe('an upstream error that echoes a secret', () => {
  it('400 with a message quoting a hash: the code and status are told, the hash nowhere', async () => {
    const fromLog = mark();
    stack.sim.faults.add({
      path: SEARCH,
      response: {
        status: 400,
        body: { error: { code: 'BAD_REQUEST', message: `Unsupported filter near hash=${PASSWORD}` } },
      },
    });
    const { post } = await command(stack, 'creds domain echo.example');
    const reply = `${String(post.body.text)}\n${textOf(post.body)}`;
    // A sentence for people; status, route and the API's code stay in the log.
    expect(reply).toContain('refused the request as invalid');
    expect(reply).not.toContain('BAD_REQUEST');
    expect(reply).not.toContain(PASSWORD);
    expect(reply).not.toContain('Unsupported filter near');
    expect(leaked(fromLog)).not.toContain(PASSWORD);
  });

  it('422 whose detail echoes the password the private form sent', async () => {
    const fromLog = mark();
    stack.sim.faults.add({
      path: SEARCH,
      response: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'query', 'value'],
              msg: `Value error, '${PASSWORD}' is not a known hash`,
              type: 'value_error',
              input: PASSWORD,
            },
          ],
        },
      },
    });
    const ack = await stack.sender.viewSubmission({
      callbackId: 'creds_password_search',
      privateMetadata: JSON.stringify({ c: SEEDED_CHANNELS.general }),
      userId: SEEDED_USERS.admin,
      values: { password: { value: { type: 'plain_text_input', value: PASSWORD } } },
    });
    expect(ack.status).toBe(200);
    const told = await stack.slack.waitFor(
      (c) => c.method === 'chat.postEphemeral' && /refused/.test(String(c.body.text)),
    );
    expect(JSON.stringify(told.body)).not.toContain(PASSWORD);
    expect(leaked(fromLog)).not.toContain(PASSWORD);
  });

  it('422 on a command: the field is named, the value the API quoted back is not', async () => {
    const fromLog = mark();
    const typed = 'wanda.maximoff';
    stack.sim.faults.add({
      path: SEARCH,
      response: {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'query', 'keyword'],
              msg: `Value error, ${typed} looks like hash=${PASSWORD}`,
              type: 'value_error',
              input: typed,
            },
          ],
        },
      },
    });
    const { post } = await command(stack, `creds keyword ${typed}`);
    const reply = `${String(post.body.text)}\n${textOf(post.body)}`;
    expect(reply).toContain('refused the request as invalid');
    expect(reply).not.toContain(PASSWORD);
    expect(reply).not.toContain(`${typed} looks like`);
    expect(leaked(fromLog)).not.toContain(PASSWORD);
  });

  it('500 in plain text echoing a token and a hash it returned earlier', async () => {
    const { post: results } = await command(stack, 'creds domain echo.example', {
      userId: SEEDED_USERS.admin,
    });
    const fromLog = mark();
    stack.sim.faults.add({
      path: SEARCH,
      times: 5,
      response: { status: 500, raw: `Internal error: token=eyJabc.def.ghi1234 value ${RECEIVED} at row 1` },
    });
    // Reveal searches the page again: the API fails, quoting the value it returned.
    const clicked = await click(stack, results.body as { blocks?: unknown[] }, 'Reveal', {
      userId: SEEDED_USERS.admin,
    });
    const post = await waitPostTo(stack, clicked.responseUrl);
    const reply = withoutReferences(`${String(post.body.text)}\n${textOf(post.body)}`);
    expect(reply).toContain('failed on its side');
    expect(reply).not.toContain('500');
    expect(reply).not.toContain(RECEIVED);
    expect(reply).not.toContain('Internal error');
    expect(leaked(fromLog)).not.toContain(RECEIVED);
    expect(leaked(fromLog)).not.toContain('eyJabc.def');
  });
});
