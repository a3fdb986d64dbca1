import { describe, expect, it } from 'vitest';
import { CONNECT_LINK_TTL_MS } from '../../../src/store/repos/connect-link-repo.js';
import { BACKENDS, storedBytes, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

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
});
