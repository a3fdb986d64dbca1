/**
 * `/vigil help <subcommand>` and usage errors, through signed HTTP into the running Vigil: both are answered
 * in the ack itself (ephemeral), so nothing reaches the response_url and no API call is made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { type Subcommand, toMrkdwn } from '../../src/slack/grammar/index.js';
import { type SenderResponse, textOf } from '../harness/index.js';
import { SUBCOMMANDS, usageOf } from '../support/grammar.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function command(text: string, userId: string = SEEDED_USERS.member): Promise<SenderResponse> {
  return stack.sender.slashCommand({ text, userId, responseUrl: stack.slack.responseUrl() });
}

/** The ack's message: its fallback text and every text in its blocks. */
function ackOf(res: SenderResponse): { responseType: unknown; text: string; all: string } {
  expect(res.status).toBe(200);
  const body = res.body as { response_type?: unknown; text?: unknown };
  expect(typeof body.text).toBe('string');
  return { responseType: body.response_type, text: String(body.text), all: `${body.text}\n${textOf(body)}` };
}

/** One invalid input per subcommand, and a phrase its error must contain. */
const INVALID: Record<Subcommand, [input: string, says: string]> = {
  help: ['help foo', 'There is no help for `foo`'],
  connect: ['connect now', '`connect` takes no arguments'],
  disconnect: ['disconnect everything', '`disconnect` takes no arguments'],
  status: ['status verbose', '`status` takes no arguments'],
  tenants: ['tenants all', '`tenants` takes no arguments'],
  tenant: ['tenant abc', 'The tenant id must be a positive whole number, not `abc`'],
  events: ['events 0', 'The identifier id must be a positive whole number, not `0`'],
  identifiers: ['identifiers type:phone', '`phone` is not a valid identifier type'],
  creds: ['creds foo bar', '`creds` searches by `domain`, `email`, `keyword` or `authdomain`, not `foo`'],
  policies: ['policies size:99', '`size:` must be from 1 to 25, not `99`'],
  assignments: ['assignments notauuid', 'The policy id must be a UUID'],
  recommendations: ['recommendations type:zzz', '`zzz` is not a valid recommendation type'],
  explain: ['explain', '`explain` needs an event uid'],
  upload: ['upload now', '`upload` takes no arguments'],
  report: ['report notauuid', 'The report request id must be a UUID'],
  intel: ['intel since:7d', '`intel` needs a question for Threat Flow'],
  idp: ['idp connect entra tenant:x client:y', '`x` is not a directory (tenant) id'],
  digest: ['digest foo', '`foo` is not a `digest` action'],
  alerts: ['alerts foo', '`foo` is not an `alerts` action'],
  audit: ['audit 0', 'The number of entries must be from 1 to 100, not `0`'],
  settings: ['settings actors nobody', '`nobody` is not who may ignore, remediate or triage events'],
  snooze: ['snooze identifier 3001 forever', '`forever` is not a snooze length'],
  snoozes: ['snoozes all', '`snoozes` alone lists them'],
};

describe('help', () => {
  it('lists every subcommand in the ack of a bare `/vigil help`', async () => {
    const ack = ackOf(await command('help'));
    expect(ack.responseType).toBe('ephemeral');
    for (const sub of SUBCOMMANDS) expect(ack.all).toContain(toMrkdwn(usageOf(sub)));
    expect(stack.slack.responseUrlPosts).toHaveLength(0);
  });

  it.each(SUBCOMMANDS.map((s) => [s]))('answers `help %s` in the ack with its usage line', async (sub) => {
    const ack = ackOf(await command(`help ${sub}`));
    expect(ack.responseType).toBe('ephemeral');
    expect(ack.all).toContain(`\`${toMrkdwn(usageOf(sub))}\``);
    // Only the one subcommand: the top-level list is not repeated.
    expect(ack.all).not.toContain('`/vigil help <subcommand>` shows the details');
  });

  it('sends nothing to Slack or the API for help', async () => {
    expect(stack.slack.responseUrlPosts).toHaveLength(0);
    expect(stack.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(stack.sim.log.entries).toHaveLength(0);
  });
});

describe('usage errors', () => {
  it.each(SUBCOMMANDS.map((s) => [s, ...INVALID[s]] as const))(
    '%s: `%s` is refused in the ack with the usage and a hint',
    async (sub, input, says) => {
      const ack = ackOf(await command(input));
      expect(ack.responseType).toBe('ephemeral');
      expect(ack.all).toContain(toMrkdwn(says));
      expect(ack.all).toContain(`Usage: \`${toMrkdwn(usageOf(sub))}\``);
      expect(ack.all).toMatch(/Type `\/vigil help|Did you mean|Valid values|Find identifier ids/);
    },
  );

  it('suggests the closest subcommand for a typo', async () => {
    const ack = ackOf(await command('statsu'));
    expect(ack.responseType).toBe('ephemeral');
    expect(ack.all).toContain('Unknown subcommand `statsu`.');
    expect(ack.all).toContain('Did you mean `status`?');
    expect(ack.all).toContain('Usage:');
  });

  it('suggests the right filter of a subcommand', async () => {
    const ack = ackOf(await command('creds domain example.com size:5'));
    expect(ack.all).toContain('`size:` is not a filter of `creds`.');
    expect(ack.all).toContain('Did you mean `limit:`?');
  });

  it.each([
    ['an AWS key', 'connect AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE', 'AWS access key'],
    [
      'a Slack token',
      'status xoxb-123456789012-abcdefghijkl',
      'xoxb-123456789012-abcdefghijkl',
      'Slack token',
    ],
    ['a password', 'events 12345 password:hunter2hunter2', 'hunter2hunter2', 'password or key'],
    [
      'a GitHub token',
      'events 12345 keyword:ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'GitHub token',
    ],
  ])('refuses %s without echoing it and points at the safe way', async (_name, input, secret, kind) => {
    const res = await command(input);
    const ack = ackOf(res);
    expect(ack.responseType).toBe('ephemeral');
    expect(ack.all).toContain(` looks like ${kind === 'AWS access key' ? 'an' : 'a'} ${kind}`);
    expect(ack.all).toContain('Vigil did not use it (nor will it repeat it)');
    expect(ack.all).toContain('`/vigil connect`');
    expect(res.text).not.toContain(secret);
    // The secret is not in Vigil's logs either.
    expect(stack.logs.join('\n')).not.toContain(secret);
  });

  it('refuses in the ack even when the workspace is connected, before any API call', async () => {
    stack.sim.log.clear();
    await command('tenant abc');
    expect(stack.sim.log.entries).toHaveLength(0);
    expect(stack.slack.responseUrlPosts).toHaveLength(0);
  });
});
