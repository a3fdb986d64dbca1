import { describe, expect, it } from 'vitest';
import type { CredentialSearchInput, EventSearchInput } from '../../../src/api/index.js';
import {
  interactivePageSize,
  toCredentialSearchInput,
  toEventSearchInput,
} from '../../../src/slack/grammar/index.js';
import { parseCommand } from '../../support/grammar.js';

/** Saturday 21 November 2026, 09:00 UTC: the ManualClock default. */
const NOW = new Date(Date.UTC(2026, 10, 21, 9, 0, 0));

function events(args: string): EventSearchInput {
  const result = parseCommand(`events 12345 ${args}`);
  if (!result.ok) throw new Error(`${args}: ${result.error.message}`);
  if (result.command.kind !== 'events') throw new Error(`${args}: parsed as ${result.command.kind}`);
  return toEventSearchInput(result.command, NOW);
}

function creds(args: string): CredentialSearchInput {
  const result = parseCommand(`creds ${args}`);
  if (!result.ok) throw new Error(`${args}: ${result.error.message}`);
  if (result.command.kind !== 'creds') throw new Error(`${args}: parsed as ${result.command.kind}`);
  return toCredentialSearchInput(result.command, NOW);
}

const base = { identifierId: 12345, size: 10 } as const;

describe('events filters → EventSearchInput', () => {
  it.each<[string, EventSearchInput]>([
    // no query, no filter: the defaults
    ['', base],
    // every query type
    ['domain:example.com', { ...base, query: { type: 'domain', fqdn: 'example.com' } }],
    ['domain:Sub.Example.COM.', { ...base, query: { type: 'domain', fqdn: 'sub.example.com' } }],
    ['domain:<http://example.com|example.com>', { ...base, query: { type: 'domain', fqdn: 'example.com' } }],
    ['domain:bücher.de', { ...base, query: { type: 'domain', fqdn: 'xn--bcher-kva.de' } }],
    ['email:alice@example.com', { ...base, query: { type: 'email', email: 'alice@example.com' } }],
    [
      'email:<mailto:alice@example.com|alice@example.com>',
      { ...base, query: { type: 'email', email: 'alice@example.com' } },
    ],
    ['keyword:acme', { ...base, query: { type: 'keyword', keyword: 'acme' } }],
    ['keyword:"acme corp"', { ...base, query: { type: 'keyword', keyword: 'acme corp' } }],
    ['keyword:“acme corp”', { ...base, query: { type: 'keyword', keyword: 'acme corp' } }],
    [
      'query:"acme AND (leak OR dump)"',
      { ...base, query: { type: 'query_string', query_string: 'acme AND (leak OR dump)' } },
    ],
    [
      'query:"5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"',
      {
        ...base,
        query: {
          type: 'query_string',
          query_string: '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8',
        },
      },
    ],
    ['username:jdoe', { ...base, query: { type: 'username', username: 'jdoe' } }],
    [
      'github:acme/website',
      { ...base, query: { type: 'github_repository', repo_owner: 'acme', repo_name: 'website' } },
    ],
    [
      'github:github.com/acme/web.site',
      { ...base, query: { type: 'github_repository', repo_owner: 'acme', repo_name: 'web.site' } },
    ],
    ['brand:Acme', { ...base, query: { type: 'brand', name: 'Acme' } }],
    ['brand:"Acme Bank"', { ...base, query: { type: 'brand', name: 'Acme Bank' } }],
    [
      'name:"Ada Lovelace"',
      { ...base, query: { type: 'name', first_name: 'Ada', last_name: 'Lovelace', is_strict: false } },
    ],
    [
      'name:"Ada Lovelace" strict',
      { ...base, query: { type: 'name', first_name: 'Ada', last_name: 'Lovelace', is_strict: true } },
    ],
    [
      'name:"Lovelace, Augusta Ada"',
      {
        ...base,
        query: { type: 'name', first_name: 'Augusta Ada', last_name: 'Lovelace', is_strict: false },
      },
    ],
    ['bin:412345', { ...base, query: { type: 'bin', bin: '412345' } }],
    ['bin:41234567', { ...base, query: { type: 'bin', bin: '41234567' } }],
    ['ip:203.0.113.7', { ...base, query: { type: 'ip', ip: '203.0.113.7' } }],
    ['ip:2001:DB8::1', { ...base, query: { type: 'ip', ip: '2001:db8::1' } }],
    [
      'azure_tenant:72F988BF-86F1-41AF-91AB-2D7CD011DB47',
      { ...base, query: { type: 'azure_tenant', tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47' } },
    ],
    // severity: a string means "that level or higher", a list means exactly those
    ['severity:high', { ...base, filters: { severity: 'high' } }],
    ['severity:INFO', { ...base, filters: { severity: 'info' } }],
    ['severity:high,critical', { ...base, filters: { severity: ['high', 'critical'] } }],
    ['severity:low,medium,high', { ...base, filters: { severity: ['low', 'medium', 'high'] } }],
    // type, status, tag lists (repeats merge)
    ['type:leak', { ...base, filters: { type: ['leak'] } }],
    ['type:leak,paste', { ...base, filters: { type: ['leak', 'paste'] } }],
    ['type:leak type:ransomleak', { ...base, filters: { type: ['leak', 'ransomleak'] } }],
    ['status:open', { ...base, filters: { status: ['open'] } }],
    ['status:open,ignored', { ...base, filters: { status: ['open', 'ignored'] } }],
    ['status:remediated status:ignored', { ...base, filters: { status: ['remediated', 'ignored'] } }],
    ['tag:vip', { ...base, filters: { tags: ['vip'] } }],
    ['tag:a,b', { ...base, filters: { tags: ['a', 'b'] } }],
    ['tag:vip,"needs review"', { ...base, filters: { tags: ['vip', 'needs review'] } }],
    ['tag:a tag:b', { ...base, filters: { tags: ['a', 'b'] } }],
    // since: relative → now − duration, inclusive
    ['since:30m', { ...base, filters: { estimated_created_at: { gte: '2026-11-21T08:30:00.000Z' } } }],
    ['since:24h', { ...base, filters: { estimated_created_at: { gte: '2026-11-20T09:00:00.000Z' } } }],
    ['since:7d', { ...base, filters: { estimated_created_at: { gte: '2026-11-14T09:00:00.000Z' } } }],
    ['since:2w', { ...base, filters: { estimated_created_at: { gte: '2026-11-07T09:00:00.000Z' } } }],
    ['since:7D', { ...base, filters: { estimated_created_at: { gte: '2026-11-14T09:00:00.000Z' } } }],
    // since: a day starts at 00:00 UTC; an explicit time is kept with its offset
    ['since:2026-11-01', { ...base, filters: { estimated_created_at: { gte: '2026-11-01T00:00:00Z' } } }],
    [
      'since:2026-11-01T10:00Z',
      { ...base, filters: { estimated_created_at: { gte: '2026-11-01T10:00:00Z' } } },
    ],
    [
      'since:2026-11-01t10:00:30.250z',
      { ...base, filters: { estimated_created_at: { gte: '2026-11-01T10:00:30.250Z' } } },
    ],
    [
      'since:2026-11-01T10:00+02:00',
      { ...base, filters: { estimated_created_at: { gte: '2026-11-01T10:00:00+02:00' } } },
    ],
    [
      'since:2026-11-01T10:00-0530',
      { ...base, filters: { estimated_created_at: { gte: '2026-11-01T10:00:00-05:30' } } },
    ],
    // until: relative and explicit times are inclusive; a day runs to the start of the next one
    ['until:24h', { ...base, filters: { estimated_created_at: { lte: '2026-11-20T09:00:00.000Z' } } }],
    ['until:2026-11-01', { ...base, filters: { estimated_created_at: { lt: '2026-11-02T00:00:00Z' } } }],
    ['until:2026-12-31', { ...base, filters: { estimated_created_at: { lt: '2027-01-01T00:00:00Z' } } }],
    ['until:2028-02-28', { ...base, filters: { estimated_created_at: { lt: '2028-02-29T00:00:00Z' } } }],
    [
      'until:2026-11-01T10:00Z',
      { ...base, filters: { estimated_created_at: { lte: '2026-11-01T10:00:00Z' } } },
    ],
    [
      'since:2026-11-01 until:2026-11-07',
      {
        ...base,
        filters: { estimated_created_at: { gte: '2026-11-01T00:00:00Z', lt: '2026-11-08T00:00:00Z' } },
      },
    ],
    [
      'since:2026-11-01 until:2026-11-01',
      {
        ...base,
        filters: { estimated_created_at: { gte: '2026-11-01T00:00:00Z', lt: '2026-11-02T00:00:00Z' } },
      },
    ],
    [
      'since:7d until:1d',
      {
        ...base,
        filters: {
          estimated_created_at: { gte: '2026-11-14T09:00:00.000Z', lte: '2026-11-20T09:00:00.000Z' },
        },
      },
    ],
    [
      'since:30d until:2026-11-20',
      {
        ...base,
        filters: { estimated_created_at: { gte: '2026-10-22T09:00:00.000Z', lt: '2026-11-21T00:00:00Z' } },
      },
    ],
    // order only when given; size bounds
    ['order:asc', { ...base, order: 'asc' }],
    ['order:DESC', { ...base, order: 'desc' }],
    ['size:1', { ...base, size: 1 }],
    ['size:10', { ...base, size: 10 }],
    ['size:5 order:asc', { ...base, size: 5, order: 'asc' }],
    // everything at once, in any order
    [
      'order:asc tag:vip since:7d domain:example.com status:open severity:high,critical type:leak,paste until:2026-11-20 size:3',
      {
        identifierId: 12345,
        size: 3,
        order: 'asc',
        query: { type: 'domain', fqdn: 'example.com' },
        filters: {
          severity: ['high', 'critical'],
          type: ['leak', 'paste'],
          status: ['open'],
          tags: ['vip'],
          estimated_created_at: { gte: '2026-11-14T09:00:00.000Z', lt: '2026-11-21T00:00:00Z' },
        },
      },
    ],
  ])('%j', (args, expected) => {
    expect(events(args)).toEqual(expected);
  });

  it('resolves relative times against the given now, not the clock', () => {
    const result = parseCommand('events 1 since:1h');
    if (!result.ok || result.command.kind !== 'events') throw new Error('expected an events command');
    expect(toEventSearchInput(result.command, new Date('2030-01-01T00:30:00Z')).filters).toEqual({
      estimated_created_at: { gte: '2029-12-31T23:30:00.000Z' },
    });
  });

  it('does not share arrays with the command', () => {
    const result = parseCommand('events 1 type:leak severity:high,critical');
    if (!result.ok || result.command.kind !== 'events') throw new Error('expected an events command');
    const input = toEventSearchInput(result.command, NOW);
    input.filters?.type?.push('paste');
    expect(result.command.filters.types).toEqual(['leak']);
  });
});

describe('creds filters → CredentialSearchInput', () => {
  it.each<[string, CredentialSearchInput]>([
    ['domain example.com', { query: { type: 'domain', fqdn: 'example.com' }, size: 10 }],
    ['authdomain login.example.com', { query: { type: 'auth_domain', fqdn: 'login.example.com' }, size: 10 }],
    ['email alice@example.com', { query: { type: 'email', email: 'alice@example.com' }, size: 10 }],
    ['keyword jdoe', { query: { type: 'keyword', keyword: 'jdoe' }, size: 10 }],
    ['keyword jdoe limit:3', { query: { type: 'keyword', keyword: 'jdoe' }, size: 3 }],
    ['keyword jdoe limit:25', { query: { type: 'keyword', keyword: 'jdoe' }, size: 25 }],
    ['keyword jdoe limit:10000', { query: { type: 'keyword', keyword: 'jdoe' }, size: 25 }],
    [
      'domain example.com since:7d',
      {
        query: { type: 'domain', fqdn: 'example.com' },
        size: 10,
        importedAt: { gte: '2026-11-14T09:00:00.000Z' },
      },
    ],
    [
      'domain example.com since:2026-11-01 until:2026-11-07',
      {
        query: { type: 'domain', fqdn: 'example.com' },
        size: 10,
        importedAt: { gte: '2026-11-01T00:00:00Z', lte: '2026-11-07T23:59:59.999Z' },
      },
    ],
    [
      'domain example.com until:2026-11-07T12:00Z',
      {
        query: { type: 'domain', fqdn: 'example.com' },
        size: 10,
        importedAt: { lte: '2026-11-07T12:00:00Z' },
      },
    ],
    [
      'domain example.com include:urls,auth_domains order:asc',
      {
        query: { type: 'domain', fqdn: 'example.com' },
        size: 10,
        include: ['urls', 'auth_domains'],
        order: 'asc',
      },
    ],
  ])('%j', (args, expected) => {
    expect(creds(args)).toEqual(expected);
  });
});

describe('interactivePageSize', () => {
  it.each<[number | undefined, number]>([
    [undefined, 10],
    [1, 1],
    [7, 7],
    [25, 25],
    [26, 25],
    [10000, 25],
    [0, 1],
  ])('%j → %j', (limit, size) => {
    expect(interactivePageSize(limit)).toBe(size);
  });
});
