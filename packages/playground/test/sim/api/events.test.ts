import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_CATEGORIES, EventPageSchema, SEVERITIES } from '../../../../../src/api/index.js';
import type { SimEvent } from '../../../src/sim/api/index.js';
import { type Answer, call, type Harness, startHarness, tokenFor, v4, walk } from './helpers.js';

let h: Harness;
let token: string;
let identifierId: number;
const search = (body: unknown, id = identifierId): Promise<Answer> =>
  call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${id}/_search`), { token, body });

const rank = (s: string) => SEVERITIES.indexOf(s as never);

/** Production's `metadata.type` names, read from the published document (not from the simulator). */
const doc = JSON.parse(
  readFileSync(new URL('../../../src/sim/api/openapi/firework-v4-openapi.json', import.meta.url), 'utf8'),
) as { components: { schemas: Record<string, { enum?: string[] }> } };
const PRODUCTION_TYPES = new Set(doc.components.schemas.ActivityModelName?.enum ?? []);
const effective = (e: SimEvent) => e.item.tenant_metadata.severity?.override ?? e.item.metadata.severity;
const seeded = () => h.sim.state.eventsOf(identifierId);

async function all(body: Record<string, unknown>): Promise<{ uids: string[]; pages: Answer[] }> {
  const pages = await walk((from) => search(from ? { ...body, from } : body));
  return {
    uids: pages.flatMap((p) => p.body.items.map((i: { metadata: { uid: string } }) => i.metadata.uid)),
    pages,
  };
}

beforeAll(async () => {
  h = await startHarness();
  const key = h.sim.keys[0];
  identifierId = h.sim.state.identifiersOf(key?.defaultTenantId ?? 0)[0]?.id ?? 0;
});
beforeEach(async () => {
  token = await tokenFor(h.sim);
});
afterAll(() => h.sim.close());

describe('event search', () => {
  it('returns pages that satisfy the shared response schema, newest first by default', async () => {
    const res = await search({});
    expect(res.status).toBe(200);
    const page = EventPageSchema.parse(res.body);
    expect(page.items).toHaveLength(10);
    const dates = page.items.map((i) => Date.parse(i.metadata.estimated_created_at));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(page.items[0]?.identifiers?.some((i) => i.id === identifierId)).toBe(true);
    expect(typeof page.next).toBe('string');
    expect(page.next).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('walks every page to next: null, with empty pages in between and no duplicates', async () => {
    const { uids, pages } = await all({ size: 3, order: 'asc' });
    const expected = seeded()
      .sort((a, b) => a.createdMs - b.createdMs || (a.item.metadata.uid < b.item.metadata.uid ? -1 : 1))
      .map((e) => e.item.metadata.uid);
    expect(uids).toEqual(expected);
    const empty = pages.filter((p) => p.body.items.length === 0);
    expect(empty.length).toBeGreaterThan(0);
    for (const p of empty) expect(p.body.next).not.toBeNull();
    expect(pages.at(-1)?.body.next).toBeNull();
  });

  it('has no empty pages when emptyPageEvery is 0', async () => {
    h.sim.state.options.emptyPageEvery = 0;
    try {
      const { pages } = await all({ size: 3 });
      expect(pages.every((p) => p.body.items.length > 0)).toBe(true);
    } finally {
      h.sim.state.options.emptyPageEvery = 3;
    }
  });

  it('returns pages shorter than size while more follow when shortPageEvery is set', async () => {
    h.sim.state.options.shortPageEvery = 2;
    try {
      const { uids, pages } = await all({ size: 5 });
      expect(pages[1]?.body.items).toHaveLength(4);
      expect(pages[1]?.body.next).not.toBeNull();
      expect(new Set(uids).size).toBe(seeded().length);
      expect(uids).toHaveLength(seeded().length);
    } finally {
      h.sim.state.options.shortPageEvery = 0;
    }
  });

  it('resumes from a stored cursor after new events arrive', async () => {
    const first = await all({ size: 4, order: 'asc' });
    const lastCursor = first.pages
      .map((p) => p.body.next)
      .filter((n) => n !== null)
      .at(-1) as string;
    const tenantId = h.sim.keys[0]?.defaultTenantId ?? 0;
    const added = h.sim.state.addEvent({
      tenantId,
      identifierIds: [identifierId],
      createdAt: h.clock.now() + 60_000,
    });
    h.clock.advance(24 * 3_600_000);
    token = await tokenFor(h.sim);
    const resumed = await walk((from) => search({ size: 4, order: 'asc', from: from ?? lastCursor }));
    const uids = resumed.flatMap((p) =>
      p.body.items.map((i: { metadata: { uid: string } }) => i.metadata.uid),
    );
    expect(uids.at(-1)).toBe(added.item.metadata.uid);
    expect(uids.slice(0, -1).every((u: string) => first.uids.includes(u))).toBe(true);
  });

  it('re-returns the last item when cursorOverlap is on', async () => {
    h.sim.state.options.cursorOverlap = true;
    try {
      const p1 = await search({ size: 2 });
      const p2 = await search({ size: 2, from: p1.body.next });
      expect(p2.body.items[0].metadata.uid).toBe(p1.body.items[1].metadata.uid);
    } finally {
      h.sim.state.options.cursorOverlap = false;
    }
  });

  it('refuses a cursor reused with different parameters, and a garbage cursor, with 422', async () => {
    const p1 = await search({ size: 2 });
    for (const body of [
      { size: 3, from: p1.body.next },
      { size: 2, from: p1.body.next, filters: { severity: 'high' } },
      { size: 2, from: 'not-a-cursor' },
    ]) {
      const res = await search(body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'from'], type: 'value_error' });
    }
  });

  it('404s an unknown identifier and 422s a non-integer one', async () => {
    expect((await search({}, 999_999)).status).toBe(404);
    const res = await call(h.sim, 'POST', v4(h.sim, '/events/identifiers/abc/_search'), { token, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['path', 'identifier_id'], type: 'int_parsing' });
  });
});

describe('event search validation (FastAPI 422 bodies)', () => {
  it('size 11', async () => {
    const res = await search({ size: 11 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          loc: ['body', 'size'],
          msg: 'Input should be less than or equal to 10',
          type: 'less_than_equal',
          input: 11,
          ctx: { le: 10 },
        },
      ],
    });
  });

  it('size 0 and a fractional size', async () => {
    expect((await search({ size: 0 })).body.detail[0]).toMatchObject({
      type: 'greater_than',
      ctx: { gt: 0 },
    });
    expect((await search({ size: 2.5 })).body.detail[0]).toMatchObject({ type: 'int_from_float' });
  });

  it('bad enum values in severity (string and array), type and order; `status` is not in FeedFilters', async () => {
    const res = await search({
      order: 'sideways',
      filters: { severity: 'urgent', type: ['leak', 'bogus'], status: ['closed'] },
    });
    expect(res.status).toBe(422);
    const byLoc = Object.fromEntries(res.body.detail.map((d: { loc: unknown[] }) => [d.loc.join('.'), d]));
    expect(byLoc['body.order']).toMatchObject({
      type: 'enum',
      input: 'sideways',
      msg: "Input should be 'asc' or 'desc'",
    });
    expect(byLoc['body.filters.severity']).toMatchObject({ type: 'enum', input: 'urgent' });
    expect(byLoc['body.filters.type.1']).toMatchObject({ type: 'enum', input: 'bogus' });
    // The specification's `status` filter is not in the published contract: an undeclared field.
    expect(byLoc['body.filters.status']).toMatchObject({ type: 'extra_forbidden', input: ['closed'] });
    const arr = await search({ filters: { severity: ['high', 'nope'] } });
    expect(arr.body.detail[0]).toMatchObject({ loc: ['body', 'filters', 'severity', 1], type: 'enum' });
  });

  it('unknown query type, missing query field, bad date', async () => {
    const tag = await search({ query: { type: 'telepathy', x: 1 } });
    expect(tag.body.detail[0]).toMatchObject({ loc: ['body', 'query'], type: 'union_tag_invalid' });
    const missing = await search({ query: { type: 'domain' } });
    expect(missing.body.detail[0]).toMatchObject({
      loc: ['body', 'query', 'fqdn'],
      type: 'missing',
      msg: 'Field required',
    });
    const date = await search({ filters: { estimated_created_at: { gte: 'yesterday' } } });
    expect(date.body.detail[0]).toMatchObject({ loc: ['body', 'filters', 'estimated_created_at', 'gte'] });
  });

  it('malformed JSON body', async () => {
    const res = await call(h.sim, 'POST', v4(h.sim, `/events/identifiers/${identifierId}/_search`), {
      token,
      rawBody: '{"size": ',
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error' });
    expect(res.body.detail[0].loc[0]).toBe('body');
  });
});

describe('event search filters', () => {
  it('a single severity means that level or higher, using the tenant override', async () => {
    const { uids } = await all({ size: 10, filters: { severity: 'high' } });
    const expected = seeded().filter((e) => rank(effective(e)) >= rank('high'));
    expect(new Set(uids)).toEqual(new Set(expected.map((e) => e.item.metadata.uid)));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(seeded().length);
  });

  it('an array of severities means exactly those', async () => {
    const { uids } = await all({ size: 10, filters: { severity: ['low', 'critical'] } });
    const expected = seeded().filter((e) => ['low', 'critical'].includes(effective(e)));
    expect(new Set(uids)).toEqual(new Set(expected.map((e) => e.item.metadata.uid)));
  });

  it('an override moves an event between severity buckets', async () => {
    const tenantId = h.sim.keys[0]?.defaultTenantId ?? 0;
    const e = h.sim.state.addEvent({
      tenantId,
      identifierIds: [identifierId],
      createdAt: h.clock.now() - 1000,
      severity: 'info',
      severityOverride: 'critical',
    });
    const uid = e.item.metadata.uid;
    expect((await all({ filters: { severity: ['critical'] } })).uids).toContain(uid);
    expect((await all({ filters: { severity: ['info'] } })).uids).not.toContain(uid);
    expect((await all({ filters: { severity: 'high' } })).uids).toContain(uid);
  });

  it('type, tags and date ranges', async () => {
    // Categories select production names: `leak` covers leaked credentials too.
    const members = ['leak', 'leaked_credential', 'leaked_data', 'leaked_file', 'paste'];
    const types = await all({ filters: { type: ['leak', 'paste'] } });
    const expectedTypes = seeded().filter((e) => members.includes(e.item.metadata.type));
    expect(expectedTypes.some((e) => e.item.metadata.type === 'leaked_credential')).toBe(true);
    expect(new Set(types.uids)).toEqual(new Set(expectedTypes.map((e) => e.item.metadata.uid)));
    // A production name is a filter value of its own.
    const stealer = await all({ filters: { type: ['stealer_log'] } });
    const stealerSeeded = seeded().filter((e) => e.item.metadata.type === 'stealer_log');
    expect(stealerSeeded.length).toBeGreaterThan(0);
    expect(new Set(stealer.uids)).toEqual(new Set(stealerSeeded.map((e) => e.item.metadata.uid)));

    const tagged = seeded().find((e) => e.item.tenant_metadata.tags.length > 0);
    const tag = tagged?.item.tenant_metadata.tags[0] ?? 'vip';
    const tags = await all({ filters: { tags: [tag] } });
    expect(tags.uids.length).toBe(seeded().filter((e) => e.item.tenant_metadata.tags.includes(tag)).length);
    expect(tags.uids).toContain(tagged?.item.metadata.uid);

    const sorted = seeded().sort((a, b) => a.createdMs - b.createdMs);
    const pivot = sorted[Math.floor(sorted.length / 2)];
    const iso = pivot?.item.metadata.estimated_created_at ?? '';
    const gte = await all({ filters: { estimated_created_at: { gte: iso } } });
    const gt = await all({ filters: { estimated_created_at: { gt: iso } } });
    expect(gte.uids).toContain(pivot?.item.metadata.uid);
    expect(gt.uids).not.toContain(pivot?.item.metadata.uid);
    expect(gte.uids.length).toBe(seeded().filter((e) => e.createdMs >= (pivot?.createdMs ?? 0)).length);
    const lt = await all({ filters: { estimated_created_at: { lt: iso } } });
    expect(lt.uids.length + gte.uids.length).toBe(seeded().length);
  });

  it('is_ignored / is_remediated: true restricts, false does not; `status` is refused', async () => {
    const ignored = seeded().filter((e) => e.item.tenant_metadata.ignored_at);
    const remediated = seeded().filter((e) => e.item.tenant_metadata.remediated_at);
    expect(ignored.length).toBeGreaterThan(0);
    expect(ignored.length).toBeLessThan(seeded().length);
    expect((await search({ filters: { status: ['open'] } })).status).toBe(422);
    expect((await all({ filters: { is_ignored: true } })).uids.length).toBe(ignored.length);
    expect((await all({ filters: { is_remediated: true } })).uids.length).toBe(remediated.length);
    expect((await all({ filters: { is_ignored: false } })).uids.length).toBe(seeded().length);
  });
});

describe('event search queries', () => {
  it('matches each query type against the event content', async () => {
    const tenantId = h.sim.keys[0]?.defaultTenantId ?? 0;
    const e = h.sim.state.addEvent({
      tenantId,
      identifierIds: [identifierId],
      createdAt: h.clock.now() - 5000,
      title: 'Combo list with jane.roe@acme.example',
      description:
        'github.com/acme/secret-repo 198.51.100.7 bin 412345 azure 0000-tenant Jane Roe user jroe pass hunter2 AKIAXYZ Brandname',
    });
    const uid = e.item.metadata.uid;
    const queries = [
      { type: 'domain', fqdn: 'acme.example' },
      { type: 'email', email: 'JANE.ROE@acme.example' },
      { type: 'keyword', keyword: 'combo list' },
      { type: 'username', username: 'jroe' },
      { type: 'github_repository', repo_owner: 'acme', repo_name: 'secret-repo' },
      { type: 'brand', name: 'brandname' },
      { type: 'name', first_name: 'Jane', last_name: 'Roe', is_strict: true },
      { type: 'bin', bin: '412345' },
      { type: 'ip', ip: '198.51.100.7' },
      { type: 'credentials', username: 'jroe', password: 'hunter2' },
      { type: 'secret', secret: 'AKIAXYZ' },
      { type: 'azure_tenant', tenant_id: '0000-tenant' },
      { type: 'query_string', query_string: '"combo list" AND hunter2 -nothingthere' },
    ];
    expect(queries.map((q) => q.type).sort()).toHaveLength(13);
    for (const query of queries) {
      const { uids } = await all({ query });
      expect(uids, query.type).toContain(uid);
    }
    const misses = [
      { type: 'name', first_name: 'Roe', last_name: 'Jane', is_strict: true },
      { type: 'query_string', query_string: 'hunter2 -combo' },
      { type: 'credentials', username: 'jroe', password: 'wrong' },
    ];
    for (const query of misses) expect((await all({ query })).uids, query.type).not.toContain(uid);
    const loose = await all({
      query: { type: 'name', first_name: 'Roe', last_name: 'Jane', is_strict: false },
    });
    expect(loose.uids).toContain(uid);
  });
});

describe('event actions', () => {
  const act = (body: unknown) => call(h.sim, 'POST', v4(h.sim, '/events/actions'), { token, body });
  const openEvents = () =>
    seeded().filter((e) => !e.item.tenant_metadata.ignored_at && !e.item.tenant_metadata.remediated_at);

  it('ignore / unignore / remediate / unremediate change state; success is 200 with a JSON null body', async () => {
    const target = openEvents()[0];
    const uid = target?.item.metadata.uid ?? '';
    const res = await act({ action: { type: 'ignore' }, targets: [{ uid }] });
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    expect(target?.item.tenant_metadata.ignored_at).toBe(new Date(h.clock.now()).toISOString());
    expect((await all({ filters: { is_ignored: true } })).uids).toContain(uid);

    await act({ action: { type: 'unignore' }, targets: [{ uid }] });
    expect(target?.item.tenant_metadata.ignored_at).toBeNull();
    await act({ action: { type: 'remediate' }, targets: [{ uid }] });
    expect((await all({ filters: { is_remediated: true } })).uids).toContain(uid);
    await act({ action: { type: 'unremediate' }, targets: [{ uid }] });
    expect((await all({ filters: { is_remediated: true } })).uids).not.toContain(uid);
    expect(target?.item.tenant_metadata.remediated_at).toBeNull();
  });

  it('accepts 10 targets and refuses 11 with 422 too_long', async () => {
    const uids = openEvents()
      .slice(0, 11)
      .map((e) => ({ uid: e.item.metadata.uid }));
    const eleven = await act({ action: { type: 'ignore' }, targets: uids });
    expect(eleven.status).toBe(422);
    expect(eleven.body.detail[0]).toMatchObject({
      loc: ['body', 'targets'],
      type: 'too_long',
      ctx: { max_length: 10, actual_length: 11 },
    });
    const ten = await act({ action: { type: 'ignore' }, targets: uids.slice(0, 10) });
    expect(ten.status).toBe(200);
    await act({ action: { type: 'unignore' }, targets: uids.slice(0, 10) });
  });

  it('404s unknown or foreign uids without changing anything', async () => {
    const known = openEvents()[0];
    const foreign = h.sim.state.events.find((e) => e.tenantId !== known?.tenantId);
    const res = await act({
      action: { type: 'remediate' },
      targets: [
        { uid: known?.item.metadata.uid },
        { uid: 'leak/nowhere/1' },
        { uid: foreign?.item.metadata.uid },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('EVENT_NOT_FOUND');
    expect(res.body.error.data.uids).toEqual(['leak/nowhere/1', foreign?.item.metadata.uid]);
    expect(known?.item.tenant_metadata.remediated_at).toBeNull();
  });

  it('422s a bad action type and a missing action', async () => {
    expect((await act({ action: { type: 'delete' }, targets: [] })).body.detail[0]).toMatchObject({
      loc: ['body', 'action', 'type'],
      type: 'enum',
    });
    expect((await act({ targets: [] })).body.detail[0]).toMatchObject({
      loc: ['body', 'action'],
      type: 'missing',
    });
  });
});

describe('seeded events', () => {
  it('cover every type and severity per identifier, with slash ids, overrides and hostile text', () => {
    for (const identifier of h.sim.state.identifiers) {
      const events = h.sim.state
        .eventsOf(identifier.id)
        .filter((e) => !e.item.metadata.uid.includes('sim_added'));
      // Production names only, one per specification category.
      const types = new Set(events.map((e) => e.item.metadata.type));
      for (const t of types) expect(PRODUCTION_TYPES).toContain(t);
      expect(types.size).toBeGreaterThanOrEqual(EVENT_CATEGORIES.length - 2);
      expect(new Set(events.map((e) => e.item.metadata.severity))).toEqual(new Set(SEVERITIES));
    }
    const all = h.sim.state.events;
    expect(all.length).toBeGreaterThanOrEqual(300);
    const everyType = new Set(all.map((e) => e.item.metadata.type));
    for (const t of ['stealer_log', 'leaked_credential', 'paste', 'forum_post', 'blog_post', 'bucket']) {
      expect(everyType).toContain(t);
    }
    expect(all.some((e) => e.item.metadata.uid.split('/').length > 3)).toBe(true);
    expect(all.some((e) => e.item.tenant_metadata.severity?.override)).toBe(true);
    const titles = all.flatMap((e) => e.item.highlights.title ?? []).join('\n');
    for (const s of [
      '<!channel>',
      '<@U123>',
      '*bold*',
      '<https://evil.example/login|click>',
      '&amp;',
      '🔥',
      'تسريب',
    ]) {
      expect(titles).toContain(s);
    }
    expect(titles).toContain('<mark>');
    expect(all.some((e) => (e.item.highlights.title?.[0]?.length ?? 0) > 3000)).toBe(true);
  });
});
