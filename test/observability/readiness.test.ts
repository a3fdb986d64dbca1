/**
 * `/readyz` through the whole stack: ready when every part is, and 503 naming the part that is down when one
 * is not (Slack's auth.test failing, the simulated API unreachable, found by its own probe or by people's
 * calls, a scheduler that stopped ticking, the store's redis-server stopped), each with its reason. `/healthz` stays the cheap
 * liveness check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import type { Ticker } from '../../src/domain/subscriptions/ticker.js';
import { command } from '../features/lists/support.js';
import { type RedisServer, startRedisServer } from '../store/support/redis-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { type Stack, startStack } from '../support/stack.js';

interface Report {
  status: string;
  checks: Record<string, { status: string; reason?: string }>;
}

/** Ticks only when the test says so: `tick()` runs every scheduler's tick once. */
class HandTicker implements Ticker {
  private readonly fns: (() => void)[] = [];
  every(_ms: number, fn: () => void) {
    this.fns.push(fn);
    return { cancel() {} };
  }
  tick(): void {
    for (const fn of this.fns) fn();
  }
}
const ticker = new HandTicker();

const clock = new ManualClock(Date.now());
let stack: Stack;
// A real redis-server beneath, so that the store can really go down.
let redis: RedisServer;

async function readyz(): Promise<{ status: number; body: Report }> {
  const res = await fetch(`${stack.vigil.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Report };
}

/** The names of the failed checks. */
const failed = (body: Report) =>
  Object.entries(body.checks)
    .filter(([, c]) => c.status === 'failed')
    .map(([name]) => name)
    .sort();

beforeAll(async () => {
  redis = await startRedisServer();
  stack = await startStack({
    clock,
    alertTicker: ticker,
    digestTicker: ticker,
    env: { VIGIL_STORE: redis.url },
  });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

describe('/readyz', () => {
  it('is ready when the store, Slack, the schedulers and the API are', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual([
      `api-probe:${new URL(stack.sim.url).host}`,
      `api:${stack.workspaceId}`,
      'scheduler:alerts',
      'scheduler:digest',
      'slack',
      'store',
    ]);
    expect(failed(body)).toEqual([]);
  });

  it("names Slack when the bot token's auth.test fails, asking Slack at most once per cache period", async () => {
    clock.advance(31_000);
    ticker.tick();
    stack.slack.failNext('auth.test', { error: 'invalid_auth' });
    const authTests = () => stack.slack.calls.filter((c) => c.method === 'auth.test').length;
    const before = authTests();
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body.status).toBe('unavailable');
    expect(failed(body)).toEqual(['slack']);
    expect(body.checks.slack?.reason).toBe('auth.test failed: invalid_auth');
    await readyz();
    await readyz();
    expect(authTests() - before).toBe(1);
    // The answer stands 30 s; then Slack is asked again, and answers well.
    clock.advance(31_000);
    ticker.tick();
    const again = await readyz();
    expect(again.status).toBe(200);
    expect(authTests() - before).toBe(2);
  });

  it('asks the API itself, at most once per 30 s, and names it when it no longer answers', async () => {
    const host = new URL(stack.sim.url).host;
    const tokenTests = () => stack.sim.log.entries.filter((e) => e.path.endsWith('/tokens/test')).length;
    clock.advance(31_000);
    ticker.tick();
    const before = tokenTests();
    expect((await readyz()).status).toBe(200);
    expect(tokenTests() - before).toBe(1);
    // The API dies: nobody calls it, yet the next probe (30 s on) finds it and /readyz names it.
    stack.sim.faults.add({ path: /\/tokens\/test$/, times: 1000, response: 'reset' });
    expect((await readyz()).status).toBe(200);
    expect(tokenTests() - before).toBe(1);
    clock.advance(30_000);
    ticker.tick();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(failed(down.body)).toContain(`api-probe:${host}`);
    expect(down.body.checks[`api-probe:${host}`]?.reason).toMatch(
      new RegExp(`^${host.replace(/\./g, '\\.')} its last call got no answer .*asked by /readyz`),
    );
    // Every probe within the 30 s answers from that one outcome.
    const asked = tokenTests();
    expect((await readyz()).status).toBe(503);
    expect(tokenTests()).toBe(asked);
    // The API is back: the next probe says so.
    stack.sim.faults.clear();
    clock.advance(30_000);
    ticker.tick();
    const back = await readyz();
    expect(back.status).toBe(200);
  });

  it("names the workspace whose API host no longer answers, from its calls' outcomes", async () => {
    const before = stack.sim.log.entries.length;
    stack.sim.faults.add({ path: /\/tokens\/test$/, times: 10, response: 'reset' });
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    stack.sim.faults.clear();
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(failed(body)).toEqual([`api:${stack.workspaceId}`]);
    expect(body.checks[`api:${stack.workspaceId}`]?.reason).toContain('got no answer');
    // No call of its own within the probe's 30 s: answered from what Vigil's calls saw.
    const probeCalls = stack.sim.log.entries.length;
    await readyz();
    expect(stack.sim.log.entries.length).toBe(probeCalls);
    expect(probeCalls).toBeGreaterThan(before);
    // The next call that gets an answer makes it ready again.
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    expect((await readyz()).status).toBe(200);
  });

  it('names each scheduler that has not ticked for three of its intervals', async () => {
    // The alert scheduler ticks every 5 s (a 60 s poll): 25 s without a tick is too long.
    clock.advance(30_000);
    const alertsOnly = await readyz();
    expect(alertsOnly.status).toBe(503);
    expect(failed(alertsOnly.body)).toEqual(['scheduler:alerts']);
    clock.advance(4 * 60_000);
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(failed(body)).toEqual(['scheduler:alerts', 'scheduler:digest']);
    expect(body.checks['scheduler:digest']?.reason).toMatch(/^has not ticked for \d+ s$/);
  });

  it('names the store when it is down, and /healthz says so too', async () => {
    await redis.stop();
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(failed(body)).toContain('store');
    expect(body.checks.store?.reason).toMatch(/Store/);
    expect((await fetch(`${stack.vigil.url}/healthz`)).status).toBe(503);
  });
});
