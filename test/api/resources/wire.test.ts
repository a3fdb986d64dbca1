import { describe, expect, it } from 'vitest';
import { pageQuery, uuidSegment } from '../../../src/api/core/wire.js';
import type { EventQuery } from '../../../src/api/index.js';
import { ValidationError } from '../../../src/api/index.js';
import { credentialSearchBody } from '../../../src/api/resources/credentials.js';
import { eventActionBodies, eventSearchBody, statusOnWire } from '../../../src/api/resources/events.js';
import { unassignBody } from '../../../src/api/resources/policies.js';
import { recommendationQuery } from '../../../src/api/resources/recommendations.js';

describe('eventSearchBody', () => {
  it('sends only what was given, with the spec names', () => {
    expect(eventSearchBody({ identifierId: 1 })).toEqual({});
    expect(
      eventSearchBody({
        identifierId: 1,
        query: { type: 'name', first_name: 'Jane', last_name: 'Wei', is_strict: false },
        filters: {
          severity: ['high', 'critical'],
          type: ['leak'],
          estimated_created_at: { gt: '2026-01-01T00:00:00Z' },
          tags: ['a'],
          status: ['open'],
          is_ignored: false,
          is_remediated: true,
        },
        order: 'desc',
        size: 10,
        from: 'cursor',
      }),
    ).toEqual({
      query: { type: 'name', first_name: 'Jane', last_name: 'Wei', is_strict: false },
      filters: {
        severity: ['high', 'critical'],
        type: ['leak'],
        estimated_created_at: { gt: '2026-01-01T00:00:00Z' },
        tags: ['a'],
        is_ignored: false,
        is_remediated: true,
      },
      order: 'desc',
      size: 10,
      from: 'cursor',
    });
  });

  it('says of a status filter what the published FeedFilters can: one state alone, else nothing', () => {
    const body = (status: ('open' | 'ignored' | 'remediated')[]) =>
      eventSearchBody({ identifierId: 1, filters: { status } });
    expect(body(['ignored'])).toEqual({ filters: { is_ignored: true } });
    expect(body(['remediated'])).toEqual({ filters: { is_remediated: true } });
    expect(body(['open'])).toEqual({});
    expect(body(['open', 'ignored'])).toEqual({});
    expect(body(['ignored', 'remediated'])).toEqual({});
  });

  it('applies what the contract cannot say to the items, by tenant_metadata (none means open)', () => {
    const at = '2026-11-01T00:00:00Z';
    const open = {};
    const bare = { tenant_metadata: null };
    const ignored = { tenant_metadata: { ignored_at: at, remediated_at: null } };
    const both = { tenant_metadata: { ignored_at: at, remediated_at: at } };
    const keep = (status: ('open' | 'ignored' | 'remediated')[]) => statusOnWire(status).keep;
    expect([open, bare, ignored, both].filter(keep(['open']) ?? (() => false))).toEqual([open, bare]);
    expect([open, ignored, both].filter(keep(['open', 'remediated']) ?? (() => false))).toEqual([open, both]);
    // Said on the wire: the server's answer is trusted (lean items may not carry tenant_metadata).
    expect(keep(['ignored'])).toBeUndefined();
    expect(keep(['open', 'ignored', 'remediated'])).toBeUndefined();
  });

  it('drops fields a query type does not have and empty filter objects', () => {
    const query = { type: 'domain', fqdn: 'a.com', password: 'leak-me' } as unknown as EventQuery;
    expect(eventSearchBody({ identifierId: 1, query, filters: { estimated_created_at: {} } })).toEqual({
      query: { type: 'domain', fqdn: 'a.com' },
    });
  });

  it('refuses bad sizes, unknown query types and missing query fields', () => {
    expect(() => eventSearchBody({ identifierId: 1, size: 0 })).toThrow(ValidationError);
    expect(() => eventSearchBody({ identifierId: 1.5 })).toThrow(ValidationError);
    expect(() =>
      eventSearchBody({ identifierId: 1, query: { type: 'nope' } as unknown as EventQuery }),
    ).toThrow(/query.type/);
    expect(() =>
      eventSearchBody({
        identifierId: 1,
        query: { type: 'github_repository', repo_owner: 'a' } as unknown as EventQuery,
      }),
    ).toThrow(/query.repo_name/);
  });
});

describe('credentialSearchBody', () => {
  it('maps importedAt to filters.imported_at and keeps include/order/size/from', () => {
    expect(
      credentialSearchBody({
        query: { type: 'auth_domain', fqdn: 'login.a.com' },
        importedAt: { lte: '2026-11-01T00:00:00Z' },
        include: ['urls'],
        size: 10_000,
        from: 'c',
      }),
    ).toEqual({
      query: { type: 'auth_domain', fqdn: 'login.a.com' },
      filters: { imported_at: { lte: '2026-11-01T00:00:00Z' } },
      include: ['urls'],
      size: 10_000,
      from: 'c',
    });
    expect(() => credentialSearchBody({ query: { type: 'email', email: 'a@b.c' }, size: 10_001 })).toThrow(
      ValidationError,
    );
  });
});

describe('eventActionBodies', () => {
  it('batches distinct uids by 10', () => {
    const uids = Array.from({ length: 21 }, (_, i) => `leak/src/${i}`);
    const bodies = eventActionBodies('remediate', [...uids, uids[0] as string]);
    expect(bodies.map((b) => (b.targets as unknown[]).length)).toEqual([10, 10, 1]);
    expect(bodies[2]).toEqual({ action: { type: 'remediate' }, targets: [{ uid: 'leak/src/20' }] });
    expect(eventActionBodies('ignore', [])).toEqual([]);
    expect(() => eventActionBodies('ignore', [''])).toThrow(ValidationError);
  });
});

describe('query parameters', () => {
  it('page queries keep from/size/order and check the size bound', () => {
    expect(pageQuery({ from: 'x', size: 25, order: 'asc' }, 25)).toEqual([
      ['from', 'x'],
      ['size', '25'],
      ['order', 'asc'],
    ]);
    expect(pageQuery({}, 25)).toEqual([]);
    expect(() => pageQuery({ size: 26 }, 25)).toThrow(ValidationError);
  });

  it('recommendations repeat `types`', () => {
    expect(
      recommendationQuery({ types: ['domain', 'email'], status: 'accepted', query: 'acme', size: 100 }),
    ).toEqual([
      ['types', 'domain'],
      ['types', 'email'],
      ['status', 'accepted'],
      ['query', 'acme'],
      ['size', '100'],
    ]);
    expect(() => recommendationQuery({ size: 101 })).toThrow(ValidationError);
  });

  it('unassign bodies and uuid segments', () => {
    expect(unassignBody({ policyUuid: 'x', identifierIds: [1, 2], cleanPastEvents: false })).toEqual({
      identifier_ids: [1, 2],
      clean_past_events: false,
    });
    expect(uuidSegment('47710112-C89F-48DF-BF5C-27A2358AF085', 'id')).toBe(
      '47710112-c89f-48df-bf5c-27a2358af085',
    );
    expect(() => uuidSegment('../tokens', 'id')).toThrow(ValidationError);
  });
});
