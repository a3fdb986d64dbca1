import { describe, expect, it } from 'vitest';
import { BACKENDS, storedBytes, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

/** A link takes five key submissions, wrong ones included. */
const MAX_KEY_ATTEMPTS = 5;

/** A connect link lives ten minutes (README: "one-time link, 10 minutes"). */
const CONNECT_LINK_TTL_MS = 10 * 60 * 1000;

describe.each(BACKENDS)('ConnectLinkRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('creates unguessable url-safe tokens and stores only their hash', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const token = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' })).not.toBe(token);
    await store.close();
    expect(await storedBytes(fixture, kind)).not.toContain(token);
  });

  it('peek does not use the link up; consume does, once', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const token = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const expected = {
      teamId: 'T0001',
      userId: 'U0ADMIN',
      createdAt: clock.now(),
      expiresAt: clock.now() + CONNECT_LINK_TTL_MS,
    };
    expect(await repos.connectLinks.peek(token)).toEqual(expected);
    expect(await repos.connectLinks.peek(token)).toEqual(expected);
    expect(await repos.connectLinks.consume(token)).toEqual(expected);
    expect(await repos.connectLinks.consume(token)).toBeUndefined();
    expect(await repos.connectLinks.peek(token)).toBeUndefined();
  });

  it('exactly one of many simultaneous submissions gets the link, across connections', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const a = reposFor(one).repos;
    const b = reposFor(two).repos;
    const token = await a.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).connectLinks.consume(token)),
    );
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });

  it('expires after ten minutes by default, or the ttl given', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const standard = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const short = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN', ttlMs: 30_000 });
    clock.advance(30_000);
    expect(await repos.connectLinks.consume(short)).toBeUndefined();
    clock.advance(CONNECT_LINK_TTL_MS - 30_000 - 1);
    expect(await repos.connectLinks.peek(standard)).toBeDefined();
    clock.advance(1);
    expect(await repos.connectLinks.peek(standard)).toBeUndefined();
    expect(await repos.connectLinks.consume(standard)).toBeUndefined();
  });

  it('rejects malformed tokens', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    for (const token of ['', 'x', `${'a'.repeat(31)}!`, 'a'.repeat(33)]) {
      expect(await repos.connectLinks.peek(token)).toBeUndefined();
      expect(await repos.connectLinks.consume(token)).toBeUndefined();
    }
  });

  it('counts key attempts atomically across connections: five slots, then the link is dead', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const a = reposFor(one).repos;
    const b = reposFor(two).repos;
    const token = await a.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).connectLinks.recordAttempt(token)),
    );
    const granted = results.filter((r) => r !== undefined);
    expect(granted).toHaveLength(MAX_KEY_ATTEMPTS);
    expect(granted.map((r) => r.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await a.connectLinks.peek(token)).toBeUndefined();
  });

  it('accepts a form token once, for its own link only', async () => {
    const one = await fixture.open();
    const two = await fixture.open();
    const a = reposFor(one).repos;
    const b = reposFor(two).repos;
    const token = await a.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const other = await a.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const formToken = await a.connectLinks.issueFormToken(token);
    if (formToken === undefined) throw new Error('no form token for a live link');
    expect(formToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await a.connectLinks.takeFormToken(other, formToken)).toBe(false);
    const takes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).connectLinks.takeFormToken(token, formToken)),
    );
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(await a.connectLinks.takeFormToken(token, 'not-a-token')).toBe(false);
    expect(await a.connectLinks.issueFormToken('x'.repeat(32))).toBeUndefined();
  });

  it('keeps the response_url sealed and hands it only to the consumer', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const responseUrl = 'https://hooks.slack.test/commands/T0001/123/secret-path';
    const token = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN', responseUrl });
    expect(await repos.connectLinks.peek(token)).not.toHaveProperty('responseUrl');
    expect(await storedBytes(fixture, kind)).not.toContain('secret-path');
    expect((await repos.connectLinks.consume(token))?.responseUrl).toBe(responseUrl);
    await store.close();
  });

  it('keeps a checked key beside the link under the link’s hash, for the link’s life', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const token = await repos.connectLinks.create({ teamId: 'T0001', userId: 'U0ADMIN' });
    const key = {
      host: 'api.flare.io',
      sealedApiKey: 'v1.sealed',
      verified: { apiKeyId: 7, organizationId: 70, defaultTenantId: 1, scopes: ['firework'], tenants: [] },
    };
    await repos.connectLinks.savePendingKey(token, key);
    expect(await repos.connectLinks.pendingKey(token)).toEqual(key);
    expect(await storedBytes(fixture, kind)).not.toContain(token);
    await repos.connectLinks.deletePendingKey(token);
    expect(await repos.connectLinks.pendingKey(token)).toBeUndefined();
    await repos.connectLinks.savePendingKey(token, key);
    clock.advance(CONNECT_LINK_TTL_MS);
    expect(await repos.connectLinks.pendingKey(token)).toBeUndefined();
    await store.close();
  });
});
