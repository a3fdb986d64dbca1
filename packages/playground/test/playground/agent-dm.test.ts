/**
 * The agent DM page of the playground, in process: the prompts Vigil sets when the DM opens, and a message
 * answered as a stream the page reads (plan, tasks, then the result's blocks rendered as the timeline renders
 * them). The page never renders the stream's markdown as HTML; it gets it as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/kernel/logger.js';
import { guardSlackContract } from '../../../../test/support/slack-contract.js';
import { type RunningPlayground, startPlayground } from '../../src/playground/start.js';

interface AgentState {
  prompts: { title: string; message: string }[];
  turns: {
    ts: string;
    text: string;
    answers: {
      state: string;
      plan: string;
      tasks: { status: string }[];
      markdown: string;
      blocksHtml: string;
    }[];
  }[];
}

let pg: RunningPlayground;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(`/playground/agent/${path}`, pg.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function state(): Promise<AgentState> {
  return (await (await fetch(new URL('/playground/agent/state?tz=UTC', pg.url))).json()) as AgentState;
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  pg = await startPlayground({
    env: { PORT: '0', LOG_LEVEL: 'warn' },
    createLogger: (config) => createLogger({ level: config.logLevel, write: () => {} }),
  });
  guardSlackContract(pg.slack);
});
afterAll(async () => pg?.stop());

describe('the agent DM page', () => {
  it('is served with the playground’s strict headers and its own script', async () => {
    const res = await fetch(new URL('/playground/agent', pg.url));
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<script src="/playground/agent.js" defer></script>');
  });

  it('shows the prompts Vigil sets on opening, then a message’s answer streaming to its result', async () => {
    expect((await post('open', {})).status).toBe(200);
    const prompts = await until(async () => {
      const s = await state();
      return s.prompts.length > 0 ? s.prompts : undefined;
    });
    expect(prompts.map((p) => p.title)).toContain('Critical events this week');
    expect((await post('say', { text: 'events 3001 size:1' })).status).toBe(200);
    const answer = await until(async () => {
      const turn = (await state()).turns.find((t) => t.text === 'events 3001 size:1');
      return turn?.answers[0]?.state === 'stopped' ? turn.answers[0] : undefined;
    });
    expect(answer.plan).not.toBe('');
    expect(answer.tasks.map((t) => t.status)).toEqual(['complete', 'complete', 'complete']);
    expect(answer.blocksHtml).toContain('Ignore');
  });

  it('takes messages from its own origin only', async () => {
    const res = await post('say', { text: 'status' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});
