/**
 * Every example shown to a newcomer works where it is shown: the welcome message's, every example of
 * `/vigil help` (top level and each subcommand) and the README's complete commands, typed as they are into
 * the playground, get a real answer (a reply or a form), never a usage error, an unknown id or an error
 * with a reference. The welcome lists every subcommand.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/kernel/logger.js';
import { helpText, parseCommand, SUBCOMMANDS } from '../../../../test/support/grammar.js';
import { guardSlackContract } from '../../../../test/support/slack-contract.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';
import { exampleCommands, welcomeFacts } from '../../src/playground/welcome.js';

const GENERAL = 'C0GENERAL';

interface State {
  version: number;
  unchanged?: boolean;
  entries?: { id: string; kind: string; html: string }[];
  modal?: string;
}

let pg: RunningPlayground;

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0', LOG_LEVEL: 'warn' },
    createLogger: (config) => createLogger({ level: config.logLevel, write: () => {} }),
  });
  // Everything the playground sends its fake Slack is held to Slack's contract, as in every stack test.
  guardSlackContract(pg.slack);
});

afterAll(async () => {
  await pg?.stop();
});

const api = (path: string, body: unknown) =>
  fetch(new URL(`/playground/api/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function state(since: number): Promise<State> {
  const res = await fetch(new URL(`/playground/api/state?tz=UTC&c=${GENERAL}&since=${since}`, pg.url));
  return (await res.json()) as State;
}

/** Runs `/vigil <command>` and returns the text of what answered it (its reply, or its form). */
async function run(command: string): Promise<string> {
  const since = (await state(0)).version;
  const res = await api('command', { text: `/vigil ${command}`, conversation: GENERAL });
  expect(res.status, command).toBe(200);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const s = await state(since);
    const replies = (s.entries ?? []).filter((e) => e.kind !== 'command');
    // A reply that is still a placeholder ("Searching…") is waited out.
    const settled = replies.filter((e) => !/…<\/div>/.test(e.html) || e.html.length > 900);
    if (s.modal) {
      const viewId = /data-view-id="([^"]+)"/.exec(s.modal)?.[1];
      await api('close', { viewId });
      return s.modal;
    }
    if (settled.length > 0 && settled.length === replies.length) return settled.map((e) => e.html).join('\n');
    if (Date.now() > deadline) throw new Error(`${command}: no answer in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FAILURE =
  /\(ref [0-9A-F]{8}\)|Reference |not found|is not a |Usage: |does not exist|Did you mean|Vigil answered HTTP|could not deliver|Slack refused/;

function expectWorked(command: string, html: string): void {
  expect(html.replace(/<[^>]+>/g, ' '), command).not.toMatch(FAILURE);
}

/**
 * `/vigil …` commands written out in full in the README: not usage lines with placeholders, nor a bare
 * name in prose ("copied back into `/vigil explain`") that needs its arguments.
 */
function readmeCommands(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  return [...new Set([...readme.matchAll(/`\/vigil ([^`]+)`/g)].map((m) => m[1] ?? ''))].filter(
    (c) => !/[<[|…]/.test(c) && parseCommand(c).ok,
  );
}

describe('examples, as typed, in the playground', () => {
  it('the welcome lists every subcommand', () => {
    const topics = new Set(exampleCommands(welcomeFacts(pg.sim)).map((e) => e.topic));
    expect([...SUBCOMMANDS].filter((s) => !topics.has(s))).toEqual([]);
    // Its words are its own (welcome.ts imports nothing of the grammar): each names a real subcommand.
    expect([...topics].filter((t) => !(SUBCOMMANDS as readonly string[]).includes(t))).toEqual([]);
  });

  it("the welcome's examples all answer", async () => {
    for (const { command } of exampleCommands(welcomeFacts(pg.sim))) {
      expectWorked(command, await run(command));
      // The tenant example switches the workspace: back to the seeded tenant for what follows.
      if (command.startsWith('tenant ')) expectWorked('tenant 2001', await run('tenant 2001'));
    }
  }, 120_000);

  it("help's examples all answer, at the top level and for every subcommand", async () => {
    const commands = new Set<string>();
    for (const topic of [undefined, ...SUBCOMMANDS]) {
      for (const e of helpText(topic).examples) commands.add(e.command.replace(/^\/vigil /, ''));
    }
    expect(commands.size).toBeGreaterThan(50);
    for (const command of commands) {
      expectWorked(command, await run(command));
      if (command.startsWith('tenant ')) expectWorked('tenant 2001', await run('tenant 2001'));
    }
  }, 300_000);

  it("the README's complete commands all answer", async () => {
    const commands = readmeCommands();
    expect(commands).toContain('events 3001 severity:high since:90d');
    for (const command of commands) expectWorked(command, await run(command));
  }, 120_000);
});
