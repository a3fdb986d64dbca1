/**
 * `/vigil creds password`: a modal takes the password, which is searched, masked in the results and never
 * echoed, stored or logged; and an expired result answers with the exact command to run again.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_CHANNELS } from '../../../packages/playground/src/sim/slack/index.js';
import { buttons, textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { addCredential, credsBodies, startCredsStack } from './support/creds-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startCredsStack({ clock });
});
afterAll(async () => {
  await stack?.close();
});

describe('creds password', () => {
  it('opens a modal at once, searches on submission, and never echoes the password anywhere', async () => {
    const password = 'Tr0ub4dor&3-horse';
    addCredential(stack, { identity_name: 'eve@pw.example', hash: password });
    const callsBefore = stack.slack.calls.length;
    const logsBefore = stack.logs.length;
    const triggerId = stack.slack.triggerId();
    const ack = await stack.sender.slashCommand({
      text: 'creds password',
      responseUrl: stack.slack.responseUrl(),
      triggerId,
    });
    expect(ack.status).toBe(200);
    const opened = await stack.slack.waitFor('views.open');
    expect(opened.body.trigger_id).toBe(triggerId);
    const view = opened.body.view as Record<string, unknown>;

    const empty = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata),
      view,
      values: { password: { value: { type: 'plain_text_input', value: ' ' } } },
    });
    expect(empty.body).toEqual({
      response_action: 'errors',
      errors: { password: 'Enter the password or hash to search for.' },
    });

    stack.sim.log.clear();
    const submitted = await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata),
      view,
      values: { password: { value: { type: 'plain_text_input', value: password } } },
    });
    expect(submitted.status).toBe(200);
    const results = await stack.slack.waitFor('chat.postEphemeral');
    expect(results.body.channel).toBe(SEEDED_CHANNELS.general);
    expect(textOf(results.body)).toContain('`eve@pw.example`');
    expect(credsBodies(stack)).toEqual([{ query: { type: 'secret', secret: password }, size: 10 }]);
    // Nothing to page, reveal or export: the query was not kept.
    expect(buttons(results.body).map((b) => b.text)).toEqual(['Share in channel']);

    const sent = stack.slack.calls
      .slice(callsBefore)
      .filter((c) => c.method !== 'views.open')
      .map((c) => `${JSON.stringify(c.headers)}${c.rawBody}`)
      .join('\n');
    expect(sent).not.toContain(password);
    expect(stack.logs.slice(logsBefore).join('\n')).not.toContain(password);
    for (const f of (await readdir(stack.dataDir)).filter((n) => n.startsWith('vigil.sqlite'))) {
      expect((await readFile(join(stack.dataDir, f))).includes(Buffer.from(password)), f).toBe(false);
    }
  });
});

describe('expired results', () => {
  it('answer a click with the exact command to run again', async () => {
    const { post } = await command(stack, 'creds domain bulk.example since:30d limit:50');
    clock.advance(25 * 3600 * 1000);
    const next = await click(stack, post.body as { blocks?: unknown[] }, 'Next page');
    const answer = await waitPostTo(stack, next.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(String(answer.body.text)).toContain('These results have expired');
    expect(JSON.stringify(answer.body)).toContain(
      'Run `/vigil creds domain bulk.example since:30d limit:50` again',
    );
  });
});
