import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StoreError } from '../../../src/store/backend/errors.js';
import { SEARCH_CONTEXT_TTL_MS } from '../../../src/store/repos/search-context-repo.js';
import { BACKENDS, useStoreFixture } from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const ContextSchema = z.object({
  workspaceId: z.string(),
  kind: z.literal('events'),
  identifierId: z.number(),
  requestedBy: z.string(),
  channelId: z.string(),
  cursor: z.string().nullable(),
});

const context = {
  workspaceId: 'T1',
  kind: 'events' as const,
  identifierId: 7,
  requestedBy: 'U1',
  channelId: 'C1',
  cursor: 'abc',
};

describe.each(BACKENDS)('SearchContextRepo on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('saves a context under a short url-safe id and reads it back typed', async () => {
    const store = await fixture.open();
    const contexts = reposFor(store).repos.searchContexts(ContextSchema);
    const id = await contexts.save(context);
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,12}$/);
    expect(await contexts.get(id)).toEqual(context);
    expect(await contexts.save(context)).not.toBe(id);
  });

  it('expires after 24 hours by default, or the ttl given, on the injected clock', async () => {
    const store = await fixture.open();
    const { repos, clock } = reposFor(store);
    const contexts = repos.searchContexts(ContextSchema);
    const day = await contexts.save(context);
    const minute = await contexts.save(context, 60_000);
    clock.advance(60_000 - 1);
    expect(await contexts.get(minute)).toEqual(context);
    clock.advance(1);
    expect(await contexts.get(minute)).toBeUndefined();
    clock.advance(SEARCH_CONTEXT_TTL_MS - 60_000 - 1);
    expect(await contexts.get(day)).toEqual(context);
    clock.advance(1);
    expect(await contexts.get(day)).toBeUndefined();
  });

  it('treats malformed or unknown ids (button values are untrusted) as unknown', async () => {
    const store = await fixture.open();
    const contexts = reposFor(store).repos.searchContexts(ContextSchema);
    for (const id of ['', 'short', '../../../etc', 'a'.repeat(200), 'AAAAAAAAAAAA']) {
      expect(await contexts.get(id)).toBeUndefined();
    }
  });

  it('refuses to save a context that does not match the schema', async () => {
    const store = await fixture.open();
    const contexts = reposFor(store).repos.searchContexts(ContextSchema);
    await expect(contexts.save({ ...context, identifierId: 'seven' } as never)).rejects.toThrow(StoreError);
  });

  it('a stored context of another shape is set aside: it reads as expired', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const id = await repos
      .searchContexts(z.object({ workspaceId: z.string(), other: z.string() }))
      .save({ workspaceId: 'T1', other: 'x' });
    expect(await repos.searchContexts(ContextSchema).get(id)).toBeUndefined();
    expect(await repos.unreadable.list('T1')).toEqual([
      { kind: 'search-context', key: id, at: expect.any(Number) },
    ]);
  });
});
