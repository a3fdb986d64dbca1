/**
 * Report requests: the replacement path is tried while it answers; any 401/403/404/405 from it falls back to
 * the documented path, and the client remembers (per client, i.e. per API host) that the replacement is absent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../../src/api/index.js';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, startServer, type TestServer, tokenRoutes } from '../support/server.js';

const id = '33333333-3333-4333-8333-333333333333';
const intelPath = `/firework/v4/threat_flow/intel/requests/${id}`;
const reportsPath = `/firework/v4/threat_flow/reports/requests/${id}`;

let server: TestServer;
let intelStatus: number;
let reportsStatus: number;
beforeEach(async () => {
  intelStatus = 404;
  reportsStatus = 200;
  server = await startServer((req, res) => {
    if (tokenRoutes(req, res)) return;
    if (req.path === intelPath) {
      return intelStatus === 200
        ? json(res, 200, { status: 'processing' })
        : json(res, intelStatus, { error: { code: 'NOPE', message: 'no' } });
    }
    if (req.path === reportsPath) {
      return reportsStatus === 200
        ? json(res, 200, { status: 'error', report: null })
        : json(res, reportsStatus, { error: { code: 'NOPE', message: 'no' } });
    }
    json(res, 404, {});
  });
});
afterEach(async () => {
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

describe('getReportRequest', () => {
  it.each([401, 403, 404, 405])(
    'falls back on %i from the replacement path and remembers it',
    async (status) => {
      intelStatus = status;
      const { client, session } = testClient(server.url);
      expect(await session.getReportRequest(id)).toEqual({
        status: 'error',
        report: null,
        answeredBy: 'reports',
      });
      // A 401 is first answered by regenerating the token once, like on any endpoint.
      const first = status === 401 ? [intelPath, intelPath, reportsPath] : [intelPath, reportsPath];
      expect(server.calls().map((r) => r.path)).toEqual(first);
      // Later reports, from any session of this client, cost one call.
      await session.getReportRequest(id);
      await client.session({ apiKey: 'key-1', tenantId: 9 }).getReportRequest(id);
      expect(server.calls().map((r) => r.path)).toEqual([...first, reportsPath, reportsPath]);
    },
  );

  it('keeps using the replacement path while it answers', async () => {
    intelStatus = 200;
    const { session } = testClient(server.url);
    await session.getReportRequest(id);
    await session.getReportRequest(id);
    expect(server.calls().map((r) => r.path)).toEqual([intelPath, intelPath]);
  });

  it('another client (another host) tries the replacement again', async () => {
    const first = testClient(server.url);
    await first.session.getReportRequest(id);
    const second = testClient(server.url);
    await second.session.getReportRequest(id);
    expect(server.calls().map((r) => r.path)).toEqual([intelPath, reportsPath, intelPath, reportsPath]);
  });

  it('does not fall back on other failures, and surfaces the documented path’s own refusal', async () => {
    intelStatus = 422;
    const { session } = testClient(server.url);
    await expect(session.getReportRequest(id)).rejects.toMatchObject({ status: 422 });
    expect(server.calls().map((r) => r.path)).toEqual([intelPath]);

    intelStatus = 404;
    reportsStatus = 403;
    const err = await session.getReportRequest(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).message).toMatch(/report feature is not enabled for this account/);
    reportsStatus = 404;
    await expect(session.getReportRequest(id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
