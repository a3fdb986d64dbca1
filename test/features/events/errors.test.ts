/** Upstream failures of an event search each reach the requester as a clear ephemeral message. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withoutReferences } from '../../support/references.js';
import type { Stack } from '../../support/stack.js';
import { command, IDENTIFIER, SEEDED_USERS, searchBodies, startEventsStack } from './support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
});

const text = `events ${IDENTIFIER.domain}`;
const SEARCH = /\/_search$/;

async function failure(): Promise<string> {
  const { post } = await command(stack, text);
  // The error replaces the "Searching…" placeholder, as results do.
  expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
  expect(String(post.body.text)).toMatch(/\(ref [0-9A-F]{8}\)$/);
  return withoutReferences(JSON.stringify(post.body));
}

describe('upstream errors', () => {
  it('revoked tokens are regenerated once and the search still answers', async () => {
    stack.sim.revokeTokens();
    const { post } = await command(stack, text);
    expect(post.body.replace_original).toBe(true);
    expect(String(post.body.text)).toMatch(/^Events 1–\d+ for identifier/);
  });

  it('401 with an invalid key: the credentials were rejected, an admin should reconnect', async () => {
    const key = stack.sim.keys[0];
    if (!key) throw new Error('no sim key');
    await stack.repos.workspaces.put(stack.workspaceId, {
      teamId: stack.workspaceId,
      apiHost: new URL(stack.sim.url).host,
      apiKey: 'not-a-valid-key-0000000000000000',
      apiKeyId: key.apiKeyId,
      organizationId: key.organizationId,
      tenantId: key.defaultTenantId,
      scopes: key.scopes,
      connectedBy: SEEDED_USERS.admin,
    });
    try {
      const body = await failure();
      expect(body).toContain('The threat-intel API rejected Vigil’s API key.');
      expect(body).toContain('/vigil connect');
      expect(stack.slack.allText()).not.toContain('not-a-valid-key');
    } finally {
      await stack.repos.workspaces.put(stack.workspaceId, {
        teamId: stack.workspaceId,
        apiHost: new URL(stack.sim.url).host,
        apiKey: key.apiKey,
        apiKeyId: key.apiKeyId,
        organizationId: key.organizationId,
        tenantId: key.defaultTenantId,
        tenantName: 'Acme Production',
        scopes: key.scopes,
        connectedBy: SEEDED_USERS.admin,
      });
    }
  });

  it('403: the key may not search this identifier', async () => {
    stack.sim.faults.add({
      path: SEARCH,
      response: { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Forbidden' } } },
    });
    const body = await failure();
    expect(body).toContain(
      `The API key may not search the events of identifier ${IDENTIFIER.domain} in tenant Acme Production (2001) (403).`,
    );
  });

  it('422: the refused fields are listed', async () => {
    stack.sim.faults.add({
      path: SEARCH,
      response: {
        status: 422,
        body: {
          detail: [{ loc: ['body', 'size'], msg: 'ensure this value is at most 10', type: 'value_error' }],
        },
      },
    });
    const body = await failure();
    expect(body).toContain('The threat-intel API refused the request as invalid.');
    // The API's field problems are detail for the log, not for people.
    expect(body).not.toContain('ensure this value is at most 10');
  });

  it('429: rate limited, wait and try again', async () => {
    stack.sim.faults.add({
      path: SEARCH,
      times: 10,
      response: { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'RATE_LIMITED' } } },
    });
    const body = await failure();
    expect(body).toContain('rate limit or search quota was reached');
    expect(body).not.toContain('429');
    expect(body).toContain('wait a little and try again');
  });

  it('5xx: the API failed, try again in a few minutes', async () => {
    stack.sim.faults.add({ path: SEARCH, times: 10, response: { status: 500, raw: '<html>oops</html>' } });
    const body = await failure();
    expect(body).toContain('The threat-intel API failed on its side.');
    expect(body).not.toMatch(/500|_search/);
    expect(body).toContain('having trouble');
    expect(body).not.toContain('<html>');
  });

  it('a workspace that is not connected is told how to connect', async () => {
    const saved = await stack.repos.workspaces.get(stack.workspaceId);
    const key = stack.sim.keys[0];
    if (!saved || !key) throw new Error('the stack is not connected');
    await stack.repos.workspaces.delete(stack.workspaceId);
    try {
      stack.sim.log.clear();
      const responseUrl = stack.slack.responseUrl();
      await stack.sender.slashCommand({ text, responseUrl });
      const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
      expect(String(post.body.text)).toContain('not connected');
      expect(searchBodies(stack)).toHaveLength(0);
    } finally {
      await stack.repos.workspaces.put(stack.workspaceId, {
        teamId: stack.workspaceId,
        apiHost: saved.apiHost,
        apiKey: key.apiKey,
        apiKeyId: saved.apiKeyId,
        organizationId: saved.organizationId,
        tenantId: saved.tenantId,
        tenantName: saved.tenantName ?? 'Acme Production',
        scopes: saved.scopes,
        connectedBy: saved.connectedBy,
      });
    }
  });
});
