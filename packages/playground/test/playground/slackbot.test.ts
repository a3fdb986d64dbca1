/**
 * The Slackbot panel of the playground, in process: the playground plays the Slackbot MCP client (the
 * official SDK, requests naming the playground's person and signed as Slack's identity auth) against Vigil's
 * own `/mcp`; the tools are Vigil's, a question's answer is a real tool result with its Block Kit drawn by
 * the playground's renderer, and what the question was read as is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/kernel/logger.js';
import { guardSlackContract } from '../../../../test/support/slack-contract.js';
import { chooseTool } from '../../src/playground/slackbot-questions.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

interface Answer {
  ok: boolean;
  tool: string;
  arguments: Record<string, unknown>;
  isError: boolean;
  text: string;
  blocksHtml: string;
}

let pg: RunningPlayground;
const logs: string[] = [];

const ask = async (question: string, headers: Record<string, string> = {}) =>
  fetch(new URL('/playground/slackbot/ask?tz=UTC', pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ question }),
  });

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0', LOG_LEVEL: 'info' },
    createLogger: (config) => createLogger({ level: config.logLevel, write: (l) => logs.push(l) }),
  });
  guardSlackContract(pg.slack);
});
afterAll(async () => pg?.stop());

describe('the Slackbot panel', () => {
  it('is served with the playground’s strict headers, and lists Vigil’s tools from tools/list', async () => {
    const page = await fetch(new URL('/playground/slackbot', pg.url));
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/playground/slackbot.js" defer></script>');
    const listed = (await (await fetch(new URL('/playground/slackbot/tools', pg.url))).json()) as {
      suggestions: string[];
      tools: { name: string }[];
    };
    expect(listed.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['search_events', 'search_leaked_credentials', 'get_status', 'act_on_event']),
    );
    expect(listed.suggestions.length).toBeGreaterThan(2);
  });

  it('answers a suggested question with a real search_events result and its Block Kit', async () => {
    const listed = (await (await fetch(new URL('/playground/slackbot/tools', pg.url))).json()) as {
      suggestions: string[];
    };
    const question = listed.suggestions[0] as string;
    const apiCalls = pg.sim.log.entries.length;
    const res = await ask(question);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Answer;
    expect(answer.tool).toBe('search_events');
    expect(answer.isError).toBe(false);
    expect(answer.text).toMatch(/severity|event/i);
    expect(answer.blocksHtml).toContain('Ignore');
    // A real search at the simulated API, made as the playground's person, on the mcp surface.
    expect(pg.sim.log.entries.slice(apiCalls).some((e) => /_search/.test(e.path))).toBe(true);
    expect(logs.some((l) => l.includes('mcp request refused'))).toBe(false);
  });

  it('reads a typed question, says which tool it chose, and refuses a cross-origin post', async () => {
    const res = await ask('Is Vigil connected, and how much search quota is left?');
    const answer = (await res.json()) as Answer;
    expect(answer.tool).toBe('get_status');
    expect(answer.text).toMatch(/connected/i);
    expect((await ask('status', { origin: 'http://evil.example' })).status).toBe(403);
  });
});

describe('reading a question (the stand-in for Slackbot’s model)', () => {
  it.each([
    [
      'Which leaked credentials do we have for acme.example?',
      'search_leaked_credentials',
      { by: 'domain', value: 'acme.example' },
    ],
    [
      'any passwords of ceo@acme.example leaked this week?',
      'search_leaked_credentials',
      { by: 'email', value: 'ceo@acme.example', since: '7d' },
    ],
    [
      'Did any of our people show up in stealer logs this week?',
      'search_events',
      { since: '7d', types: ['stealer_log'] },
    ],
    [
      'critical events on acme.example today',
      'search_events',
      { identifier: 'acme.example', severity: 'critical', since: '1d' },
    ],
    ['What do we monitor?', 'list_identifiers', {}],
    ['what is snoozed', 'list_snoozes', {}],
  ])('%s', (question, tool, args) => {
    expect(chooseTool(question)).toEqual({ tool, arguments: args });
  });
});
