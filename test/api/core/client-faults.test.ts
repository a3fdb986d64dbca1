import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  RateLimitedError,
  TimeoutError,
  UnexpectedResponseError,
  UpstreamError,
  ValidationError,
} from '../../../src/api/index.js';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, type Recorded, startServer, type TestServer, tokenRoutes } from '../support/server.js';

const POLICIES = '/firework/v4/matching-policies';
const emptyPage = { items: [], next: null };

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  // Every v4 request the client sent must be acceptable to the public OpenAPI document.
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

/** Answers calls to `path` with the scripted responses in turn, then with an empty page. */
function script(
  path: string,
  steps: Array<(req: Recorded, res: import('node:http').ServerResponse) => void>,
) {
  let i = 0;
  server.handle((req, res) => {
    if (tokenRoutes(req, res)) return;
    if (req.path !== path) return json(res, 404, {});
    const step = steps[i++];
    if (step) step(req, res);
    else json(res, 200, emptyPage);
  });
}

describe('429 handling', () => {
  it('honours Retry-After in seconds', async () => {
    script(POLICIES, [
      (_q, res) => json(res, 429, { error: { code: 'RATELIMIT_REACHED' } }, { 'retry-after': '3' }),
    ]);
    const { session, delays } = testClient(server.url);
    await expect(session.listMatchingPolicies()).resolves.toEqual(emptyPage);
    expect(delays).toEqual([3000]);
    expect(server.calls()).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { session, delays, clock } = testClient(server.url);
    const at = new Date(clock.now() + 7000).toUTCString();
    script(POLICIES, [
      (_q, res) => json(res, 429, { error: { code: 'RATELIMIT_REACHED' } }, { 'retry-after': at }),
    ]);
    await session.listMatchingPolicies();
    expect(delays).toEqual([7000]);
  });

  it('backs off from 10 s without Retry-After, then gives up with RateLimitedError after 3 attempts', async () => {
    const limited = (_q: Recorded, res: import('node:http').ServerResponse) =>
      json(res, 429, { error: { code: 'RATELIMIT_REACHED', message: 'slow down' } });
    script(POLICIES, [limited, limited, limited, limited]);
    const { session, delays } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).code).toBe('RATELIMIT_REACHED');
    expect((err as RateLimitedError).retryAfterMs).toBeUndefined();
    expect(delays).toEqual([10_000, 20_000]);
    expect(server.calls()).toHaveLength(3);
  });

  it('fails instead of sleeping past the overall deadline', async () => {
    script(POLICIES, [
      (_q, res) => json(res, 429, { error: { code: 'RATELIMIT_REACHED' } }, { 'retry-after': '120' }),
    ]);
    const { session, delays } = testClient(server.url, { retry: { deadlineMs: 30_000 } });
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(120_000);
    expect(delays).toEqual([]);
    expect(server.calls()).toHaveLength(1);
  });
});

describe('5xx and transport failures', () => {
  it('retries a plain-text 502 with jittered backoff, then succeeds', async () => {
    const bad = (_q: Recorded, res: import('node:http').ServerResponse) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('Bad Gateway');
    };
    script(POLICIES, [bad, bad]);
    const { session, delays } = testClient(server.url);
    await expect(session.listMatchingPolicies()).resolves.toEqual(emptyPage);
    // Equal jitter with random() = 0.5: 3/4 of the exponential step (500 ms, then 1000 ms).
    expect(delays).toEqual([375, 750]);
  });

  it('makes at most 3 attempts and surfaces the UpstreamError without HTML', async () => {
    const html = (_q: Recorded, res: import('node:http').ServerResponse) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body><h1>503 Service Unavailable</h1><script>x</script></body></html>');
    };
    script(POLICIES, [html, html, html, html, html]);
    const { session } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(503);
    expect((err as Error).message).not.toMatch(/<|script|html/i);
    expect(server.calls()).toHaveLength(3);
  });

  it('does not retry a non-idempotent call after a 502, but does after a 503 (rejected unprocessed)', async () => {
    const upload = '/firework/v4/sandbox/uploads';
    script(upload, [(_q, res) => json(res, 502, { error: { code: 'BAD_GATEWAY' } })]);
    const first = testClient(server.url);
    await expect(first.session.createSandboxUpload('a.bin')).rejects.toBeInstanceOf(UpstreamError);
    expect(server.calls()).toHaveLength(1);

    script(upload, [
      (_q, res) => json(res, 503, { error: { code: 'UNAVAILABLE' } }),
      (_q, res) => json(res, 200, { upload_url: 'https://storage.example/u' }),
    ]);
    const second = testClient(server.url);
    await expect(second.session.createSandboxUpload('a.bin')).resolves.toEqual({
      upload_url: 'https://storage.example/u',
    });
    expect(server.calls()).toHaveLength(3);
  });

  it('retries after a connection reset', async () => {
    script(POLICIES, [(_q, res) => res.socket?.destroy()]);
    const { session, delays } = testClient(server.url);
    await expect(session.listMatchingPolicies()).resolves.toEqual(emptyPage);
    expect(delays).toHaveLength(1);
    expect(server.calls()).toHaveLength(2);
  });

  it('gives up with ConnectionError when every attempt is reset', async () => {
    script(
      POLICIES,
      Array.from(
        { length: 5 },
        () => (_q: Recorded, res: import('node:http').ServerResponse) => res.socket?.destroy(),
      ),
    );
    const { session } = testClient(server.url);
    await expect(session.listMatchingPolicies()).rejects.toBeInstanceOf(ConnectionError);
    expect(server.calls()).toHaveLength(3);
  });

  it('times out waiting for headers, retries, and succeeds', async () => {
    // The first response never comes; the headers timeout fires, the retry gets an answer.
    script(POLICIES, [() => {}]);
    const { session, delays } = testClient(server.url, { timeouts: { headersMs: 300 } });
    await expect(session.listMatchingPolicies()).resolves.toEqual(emptyPage);
    expect(delays).toHaveLength(1);
  });

  it('reports a TimeoutError (headers phase) when the server never answers', async () => {
    script(POLICIES, [() => {}, () => {}]);
    const { session } = testClient(server.url, { timeouts: { headersMs: 200 }, retry: { maxAttempts: 2 } });
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).phase).toBe('headers');
  });
});

describe('responses the client refuses', () => {
  it('aborts a response larger than maxResponseBytes', async () => {
    script(POLICIES, [
      (_q, res) => {
        // No content-length: the cap must hold while streaming.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
        const chunk = `${'"x",'.repeat(4096)}`;
        let sent = 0;
        const pump = () => {
          while (sent < 200 && res.write(chunk)) sent++;
          if (sent < 200) res.once('drain', pump);
          else res.end('"x"],"next":null}');
        };
        pump();
      },
    ]);
    const { session } = testClient(server.url, { maxResponseBytes: 64 * 1024 });
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect((err as Error).message).toMatch(/exceeded 65536 bytes/);
    expect(server.calls()).toHaveLength(1);
  });

  it('rejects an oversized content-length up front', async () => {
    script(POLICIES, [
      (_q, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(10 * 1024 * 1024),
        });
        res.write('{');
      },
    ]);
    const { session } = testClient(server.url, { maxResponseBytes: 1024 });
    await expect(session.listMatchingPolicies()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('never follows a redirect', async () => {
    let followed = false;
    server.handle((req, res) => {
      if (tokenRoutes(req, res)) return;
      if (req.path === '/elsewhere') {
        followed = true;
        return json(res, 200, emptyPage);
      }
      res.writeHead(302, { location: `${server.url}/elsewhere` });
      res.end();
    });
    const { session } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect((err as UnexpectedResponseError).status).toBe(302);
    expect(followed).toBe(false);
  });

  it('turns a schema mismatch into UnexpectedResponseError carrying the raw value and zod issues', async () => {
    // The page itself, not one of its items (an odd item is left out, see tolerance.test.ts).
    const drifted = { items: { uuid: 'u', name: 42 }, next: null };
    script(POLICIES, [(_q, res) => json(res, 200, drifted)]);
    const { session } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect((err as UnexpectedResponseError).raw).toEqual(drifted);
    expect((err as UnexpectedResponseError).issues.map((i) => i.path.join('.'))).toContain('items');
    expect((err as Error).name).toBe('UnexpectedResponseError');
  });

  it('treats a non-JSON 200 as UnexpectedResponseError with the (truncated) text', async () => {
    script(POLICIES, [
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"items": [');
      },
    ]);
    const { session } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect((err as UnexpectedResponseError).raw).toBe('{"items": [');
  });

  it('maps a 422 to ValidationError with the field list', async () => {
    script(POLICIES, [
      (_q, res) =>
        json(res, 422, {
          detail: [
            {
              loc: ['query', 'size'],
              msg: 'Input should be less than or equal to 25',
              type: 'less_than_equal',
            },
          ],
        }),
    ]);
    const { session } = testClient(server.url);
    const err = await session.listMatchingPolicies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fields).toEqual([
      { field: 'query.size', message: 'Input should be less than or equal to 25' },
    ]);
    expect(server.calls()).toHaveLength(1);
  });
});
