/**
 * A value that looks like a password, token or key, typed in any field of any command, is refused before any
 * API call and never repeated: not in the ack, not in anything Vigil sent to Slack, not in the log. The refusal
 * names the field. A stray word that may be a password is never quoted back either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'P@ssw0rd123!';
// Assembled, so this file does not look like it holds a real token.
const GITHUB = `ghp_${'Zx9Yw8Vu7Ts6Rq5Po4Nm'.repeat(2)}`;

/** Every field of `events` and `creds` that takes typed text, and the words of the refusal. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  [`events 3001 query:"${PASSWORD}"`, 'The value of `query:`'],
  [`events 3001 keyword:${PASSWORD}`, 'The value of `keyword:`'],
  [`events 3001 domain:${PASSWORD}`, 'The value of `domain:`'],
  [`events 3001 email:${PASSWORD}`, 'The value of `email:`'],
  [`events 3001 username:${PASSWORD}`, 'The value of `username:`'],
  [`events 3001 github:${PASSWORD}`, 'The value of `github:`'],
  [`events 3001 brand:"${PASSWORD}"`, 'The value of `brand:`'],
  [`events 3001 name:"Ada ${PASSWORD}"`, 'The value of `name:`'],
  [`events 3001 bin:${PASSWORD}`, 'The value of `bin:`'],
  [`events 3001 ip:${PASSWORD}`, 'The value of `ip:`'],
  [`events 3001 azure_tenant:${PASSWORD}`, 'The value of `azure_tenant:`'],
  [`events 3001 tag:${PASSWORD}`, 'The value of `tag:`'],
  [`events all keyword:${GITHUB}`, 'The value of `keyword:`'],
  [`events Project ${PASSWORD}`, 'word after `events`'],
  [`creds keyword ${PASSWORD}`, 'The value after `creds keyword`'],
  [`creds email ${PASSWORD}`, 'The value after `creds email`'],
  [`creds domain ${GITHUB}`, 'The value after `creds domain`'],
  [`creds authdomain acme.example since:${PASSWORD}`, 'The value of `since:`'],
  [`identifiers ${PASSWORD}`, 'word after `identifiers`'],
  [`explain ${PASSWORD}`, 'word after `explain`'],
  [`digest add tag:${PASSWORD}`, 'The value of `tag:`'],
  [`alerts add types:${PASSWORD}`, 'The value of `types:`'],
  // A key pasted inside an event uid, where no word boundary stands before it.
  [`explain leak/src/id_${GITHUB}`, 'word after `explain`'],
  [`snooze leak/src/x${GITHUB} 1d`, 'after `snooze`'],
];

async function send(text: string): Promise<string> {
  const res = await stack.sender.slashCommand({
    text,
    userId: SEEDED_USERS.admin,
    responseUrl: stack.slack.responseUrl(),
  });
  expect(res.status).toBe(200);
  return res.text;
}

describe('secret-looking values in commands', () => {
  it.each(CASES)('%s is refused, naming the field, with no API call and no echo', async (text, field) => {
    const calls = stack.sim.log.entries.length;
    const ack = await send(text);
    expect(ack).toContain(field);
    expect(ack).toMatch(/looks like (a password|a GitHub token)/);
    await stack.tracker.idle();
    expect(stack.sim.log.entries.length).toBe(calls);
    for (const secret of [PASSWORD, GITHUB]) {
      expect(ack).not.toContain(secret);
      expect(stack.slack.allText()).not.toContain(secret);
      expect(stack.logs.join('\n')).not.toContain(secret);
    }
  });

  it('never quotes back a stray word that may be a password (creds email a@b.c hunter2)', async () => {
    const calls = stack.sim.log.entries.length;
    const ack = await send('creds email a@b.co hunter2');
    expect(ack).toContain('not repeated here');
    expect(ack).not.toContain('hunter2');
    await stack.tracker.idle();
    expect(stack.sim.log.entries.length).toBe(calls);
    expect(stack.slack.allText()).not.toContain('hunter2');
  });

  it('still searches ordinary values (domains, emails, keywords, uuids, ids)', async () => {
    const calls = stack.sim.log.entries.length;
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({
      text: 'events 3001 keyword:Log4Shell since:2026-01-01T00:00+02:00',
      userId: SEEDED_USERS.admin,
      responseUrl,
    });
    await stack.slack.waitForPost((p) => p.path === new URL(responseUrl).pathname);
    expect(stack.sim.log.entries.length).toBeGreaterThan(calls);
  });
});
