/**
 * Interactive before background: callers waiting for one organization and tier are served interactive first
 * (each priority in FIFO order), so a background poll never delays a search someone is waiting for. Time
 * moves on the manual clock; sleeps end when the test says so.
 */
import { describe, expect, it } from 'vitest';
import { type Priority, RateLimiter } from '../../../src/api/core/rate-limiter.js';
import { ManualClock } from '../../support/manual-clock.js';
import { testClient } from '../support/client.js';
import { json, startServer } from '../support/server.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A limiter whose sleeps end only when the test calls `wake()`, which moves the clock by the sleep. */
function controlledLimiter(perSecond: number) {
  const clock = new ManualClock();
  const sleeping: Array<() => void> = [];
  const limiter = new RateLimiter(
    { ordinaryPerSecond: perSecond, searchPerSecond: 1, marginMs: 0 },
    {
      clock,
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          sleeping.push(() => {
            clock.advance(ms);
            resolve();
          });
        }),
    },
  );
  const wake = async () => {
    await settle();
    sleeping.shift()?.();
    await settle();
  };
  return { limiter, wake, sleeping };
}

describe('RateLimiter priorities', () => {
  it('serves waiting interactive callers before background ones that came first', async () => {
    const { limiter, wake } = controlledLimiter(1);
    const order: string[] = [];
    const ask = (name: string, priority: Priority) =>
      limiter.acquire('org:1', 'ordinary', priority).then(() => order.push(name));
    const all = [
      ask('b0', 'background'),
      ask('b1', 'background'),
      ask('b2', 'background'),
      ask('i1', 'interactive'),
      ask('i2', 'interactive'),
    ];
    await settle();
    // b0 found the window free; the rest wait.
    expect(order).toEqual(['b0']);
    for (let i = 0; i < 4; i++) await wake();
    await Promise.all(all);
    expect(order).toEqual(['b0', 'i1', 'i2', 'b1', 'b2']);
  });

  it('keeps other organizations and tiers out of each other’s way', async () => {
    const { limiter } = controlledLimiter(1);
    const granted: string[] = [];
    await limiter.acquire('org:1', 'ordinary', 'interactive');
    void limiter.acquire('org:1', 'ordinary', 'interactive').then(() => granted.push('org1 again'));
    await Promise.all([
      limiter.acquire('org:2', 'ordinary', 'background').then(() => granted.push('org2 background')),
      limiter.acquire('org:1', 'search', 'background').then(() => granted.push('org1 search')),
    ]);
    expect(granted).toEqual(['org2 background', 'org1 search']);
  });

  it('takes the priority from the credentials: background polls wait behind a search', async () => {
    const clock = new ManualClock();
    const sleeping: Array<() => void> = [];
    const server = await startServer((req, res) => {
      if (req.path === '/tokens/generate')
        return json(res, 200, { token: `tok-${req.headers.authorization}` });
      return json(res, 200, { items: [], next: null });
    });
    /** Ends one sleep at a time (a few ms apart in real time) until `work` is done. */
    const drive = async (work: Promise<unknown>) => {
      let finished = false;
      void work.finally(() => {
        finished = true;
      });
      while (!finished) {
        await new Promise((r) => setTimeout(r, 5));
        sleeping.shift()?.();
      }
      await work;
    };
    try {
      const { client } = testClient(server.url, {
        clock,
        sleep: (ms) =>
          new Promise<void>((resolve) => {
            sleeping.push(() => {
              clock.advance(ms);
              resolve();
            });
          }),
        rateLimits: { ordinaryPerSecond: 1, searchPerSecond: 1, marginMs: 0 },
      });
      // Two keys of organization 5: a poller working in the background, and a person.
      const poller = client.session({ apiKey: 'key-poll', organizationId: 5, priority: 'background' });
      const person = client.session({ apiKey: 'key-person', organizationId: 5 });
      await drive(Promise.all([person.listMatchingPolicies(), poller.listMatchingPolicies()]));
      const polls = Promise.all([poller.listMatchingPolicies(), poller.listMatchingPolicies()]);
      await settle();
      const search = person.listMatchingPolicies();
      await drive(Promise.all([polls, search]));
      const calls = server.requests.filter((r) => r.path.endsWith('/matching-policies'));
      expect(calls.slice(-3).map((r) => r.headers.authorization)).toEqual([
        'Bearer tok-key-person',
        'Bearer tok-key-poll',
        'Bearer tok-key-poll',
      ]);
    } finally {
      await server.close();
    }
  });
});
