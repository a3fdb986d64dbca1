/** Policies and assignments against a fake API: paging parameters and a 422 on unassign in plain fields. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/api/index.js';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, startServer, type TestServer, tokenRoutes } from '../support/server.js';

const uuid = '44444444-4444-4444-8444-444444444444';
let server: TestServer;
beforeEach(async () => {
  server = await startServer((req, res) => {
    if (tokenRoutes(req, res)) return;
    if (req.method === 'DELETE') {
      return json(res, 422, {
        detail: [
          { loc: ['body', 'identifier_ids', 0], msg: 'Input should be a valid integer', type: 'int_parsing' },
          {
            loc: ['body', 'clean_past_events'],
            msg: 'Input should be a valid boolean',
            type: 'bool_parsing',
          },
        ],
      });
    }
    json(res, 200, { items: [], next: null });
  });
});
afterEach(async () => {
  expect(contractProblems(server.requests.map(fromRecorded))).toEqual([]);
  await server.close();
});

describe('policies', () => {
  it('sends from, size and order; policies take size 1–25, assignments any positive size', async () => {
    const { session } = testClient(server.url);
    await session.listMatchingPolicies({ from: 'c1', size: 25, order: 'asc' });
    await session.listPolicyAssignments(uuid, { from: 'c2', size: 200, order: 'desc' });
    expect(server.calls().map((r) => [r.path, r.query.toString()])).toEqual([
      ['/firework/v4/matching-policies', 'from=c1&size=25&order=asc'],
      [`/firework/v4/matching-policies/${uuid}/assignments`, 'from=c2&size=200&order=desc'],
    ]);
    await expect(session.listMatchingPolicies({ size: 26 })).rejects.toBeInstanceOf(ValidationError);
    await expect(session.listPolicyAssignments(uuid, { size: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(server.calls()).toHaveLength(2);
  });

  it('a 422 on unassign names each invalid field in plain words', async () => {
    const { session } = testClient(server.url);
    const err = await session
      .unassignPolicy({ policyUuid: uuid, identifierIds: [1], cleanPastEvents: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.fields).toEqual([
      { field: 'body.identifier_ids.0', message: 'Input should be a valid integer' },
      { field: 'body.clean_past_events', message: 'Input should be a valid boolean' },
    ]);
    expect(v.hint).toMatch(/Check the values/);
    const [del] = server.calls();
    expect(del?.json).toEqual({ identifier_ids: [1], clean_past_events: true });
  });
});
