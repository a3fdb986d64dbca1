/** `/vigil events <id> <query>`: every text query type reaches the API as exactly one query object. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';
import { command, IDENTIFIER, searchBodies, startEventsStack } from './support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

const id = IDENTIFIER.domain;

describe('query types', () => {
  it.each([
    ['', undefined],
    ['domain:acme.example', { type: 'domain', fqdn: 'acme.example' }],
    ['email:ada@acme.example', { type: 'email', email: 'ada@acme.example' }],
    ['keyword:"acme corp"', { type: 'keyword', keyword: 'acme corp' }],
    ['query:"acme AND leak"', { type: 'query_string', query_string: 'acme AND leak' }],
    ['username:ada_l', { type: 'username', username: 'ada_l' }],
    ['github:acme/website', { type: 'github_repository', repo_owner: 'acme', repo_name: 'website' }],
    ['brand:"Acme Labs"', { type: 'brand', name: 'Acme Labs' }],
    [
      'name:"Ada Lovelace" strict',
      { type: 'name', first_name: 'Ada', last_name: 'Lovelace', is_strict: true },
    ],
    ['bin:412345', { type: 'bin', bin: '412345' }],
    ['ip:203.0.113.7', { type: 'ip', ip: '203.0.113.7' }],
    [
      'azure_tenant:8f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      { type: 'azure_tenant', tenant_id: '8f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b' },
    ],
  ])('events %s %s', async (query, expected) => {
    stack.sim.log.clear();
    const { post } = await command(stack, `events ${id} ${query}`.trim());
    expect(post.body.response_type).toBe('ephemeral');
    expect(post.body.replace_original).toBe(true);
    expect(searchBodies(stack)).toEqual([
      expected === undefined ? { size: 10 } : { query: expected, size: 10 },
    ]);
    expect(textOf(post.body)).toContain(`identifier`);
  });
});
