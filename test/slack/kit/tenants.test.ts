/**
 * `/vigil tenants` with long, hostile names: the list is split over sections within Slack's limits, every
 * tenant is listed or counted as left out, and no cut ever leaves half an entity (`&lt` without its `;`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTenants, type TenantsPageInput } from '../../../src/domain/connection-blocks.js';
import { codeSpan, escapeMrkdwn, listCodeSpan, truncate } from '../../../src/slack/kit/text.js';
import { mrkdwnTexts } from '../../support/mrkdwn-scan.js';
import { checkBlockKitLimits } from './support/block-kit-limits.js';

/** An `&` that does not start a whole entity: what a cut through `&lt;` leaves behind. */
const BROKEN_ENTITY = /&(?!(?:amp|lt|gt);)/;
/**
 * The same leftover once escaped again as Vigil's own text, shown as `&lt` (inputs below never hold `&` before
 * a letter, so any `&amp;` followed by a letter is one).
 */
const LEFTOVER_ENTITY = /&amp;[a-z]/;

function page(tenants: TenantsPageInput['tenants'], extra: Partial<TenantsPageInput> = {}): TenantsPageInput {
  return {
    tenants,
    current: tenants[0]?.id ?? 0,
    first: 1,
    total: undefined,
    nextRef: undefined,
    isAdmin: true,
    ...extra,
  };
}

const hostile = (i: number, n: number) => `Tenant ${i} <${'&<>'.repeat(n)}> ${'long name '.repeat(n)}`;

describe('renderTenants', () => {
  it('splits 25 long, hostile names over sections within every limit, listing or counting each tenant', () => {
    const tenants = Array.from({ length: 25 }, (_, i) => ({
      id: 5000 + i,
      name: hostile(i, 40),
      description: `Description ${i} ${'& <b> '.repeat(60)}`,
    }));
    const message = renderTenants(page(tenants, { nextRef: 'NEXTref12345' }));
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    const texts = mrkdwnTexts(message);
    for (const t of texts) {
      expect(t).not.toMatch(BROKEN_ENTITY);
      expect(t).not.toMatch(LEFTOVER_ENTITY);
    }
    const listed = tenants.filter((t) => texts.some((s) => s.includes(`(id ${t.id})`))).length;
    const omitted = Number(
      /(\d+) more tenants? (?:on this page )?did not fit/.exec(texts.join('\n'))?.[1] ?? 0,
    );
    expect(listed).toBeGreaterThan(1);
    expect(listed + omitted).toBe(25);
    // Next page still works when names are long.
    expect(JSON.stringify(message.blocks)).toContain('NEXTref12345');
  });

  it('cuts a description after escaping, never through an entity', () => {
    for (let pad = 190; pad < 200; pad++) {
      const tenants = [{ id: 1, name: 'Acme', description: `${'x'.repeat(pad)}<&>${'y'.repeat(50)}` }];
      for (const t of mrkdwnTexts(renderTenants(page(tenants)))) {
        expect(t).not.toMatch(BROKEN_ENTITY);
        expect(t).not.toMatch(LEFTOVER_ENTITY);
      }
    }
  });
});

describe('cutting escaped text', () => {
  it('truncate keeps whole entities and stays within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('<', '>', '&', 'a', ' ', '\u{1F600}') }),
        fc.nat(80),
        (s, max) => {
          const cut = truncate(escapeMrkdwn(s), max);
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(cut).not.toMatch(BROKEN_ENTITY);
        },
      ),
    );
  });

  it('code spans are cut after escaping: the limit holds for what is shown, entities stay whole', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('<', '>', '&', 'a', '\u{1F600}') }),
        fc.integer({ min: 3, max: 60 }),
        (s, max) => {
          for (const span of [codeSpan(s, max), listCodeSpan(s, max)]) {
            expect(span.length).toBeLessThanOrEqual(max + 2);
            expect(span).not.toMatch(BROKEN_ENTITY);
          }
        },
      ),
    );
  });
});
