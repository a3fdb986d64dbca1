/**
 * The list builders (policies, assignments, recommendations, reports, sandbox): hostile upstream text stays
 * inert, customer values stay verbatim in code spans, and the largest pages fit Block Kit's limits.
 */
import { describe, expect, it } from 'vitest';
import type { ApiReport, MatchingPolicy, Recommendation } from '../../../src/api/index.js';
import { renderReport } from '../../../src/domain/report-blocks.js';
import {
  fieldProblemsText,
  plainField,
  renderAssignments,
  renderPolicies,
  renderUnassignModal,
} from '../../../src/features/policies/blocks.js';
import { renderRecommendations } from '../../../src/features/recommendations/blocks.js';
import { renderUploadFailed, renderUploadModal } from '../../../src/features/sandbox/blocks.js';
import { listCodeSpan as codeSpan } from '../../../src/slack/kit/text.js';
import { checkBlockKitLimits } from './support/block-kit-limits.js';

const HOSTILE = '<!channel> <@U0ADMIN01> *bold* `code` <https://evil.example|click> evil.example';
const UUID = '3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f';

/** Control sequences Slack would act on (mentions, broadcasts, links), other than our own date tokens. */
const CONTROL = /<[!@#]|<https?:/i;
const inert = (payload: unknown) => JSON.stringify(payload).replace(/<!date\^\d+\^[^<>|]*\|[^<>|]*>/g, '');

function policy(i: number, extra: Partial<MatchingPolicy> = {}): MatchingPolicy {
  return {
    uuid: UUID,
    name: `${HOSTILE} ${i}`,
    policy_type: 'INCLUDED_KEYWORDS',
    value: { keywords: Array.from({ length: 60 }, (_, k) => `${HOSTILE} ${'k'.repeat(200)}${k}`) },
    created_at: '2026-11-01T00:00:00Z',
    last_updated_at: '2026-11-02T00:00:00Z',
    ...extra,
  } as MatchingPolicy;
}

describe('code spans', () => {
  it('keep a value verbatim but inert: no backticks, no control characters, escaped', () => {
    expect(codeSpan('acme.example')).toBe('`acme.example`');
    expect(codeSpan('a`b<c>&\nd')).toBe('`a b&lt;c&gt;&amp; d`');
    expect(codeSpan('')).toBe('—');
  });
});

describe('policies', () => {
  it('renders 25 huge policies within the limits, with upstream text inert', () => {
    const message = renderPolicies({
      policies: Array.from({ length: 25 }, (_, i) => policy(i)),
      first: 1,
      nextRef: 'ABCDEFGHIJKL',
    });
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(inert(message.blocks)).not.toMatch(CONTROL);
    expect(message.text).toBe('Matching policies 1–25 · more follow.');
  });

  it('renders an unknown type generically and an empty value', () => {
    const message = renderPolicies({
      policies: [
        policy(0, {
          policy_type: 'SOMETHING_NEW',
          value: { some_list: [1, 'two'], flag: true, deep: { a: [1] } },
        }),
      ],
      first: 3,
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('Something new');
    expect(text).toContain('Some list: `1`, `two`');
    expect(text).toContain('Flag: yes');
    expect(text).toContain('Deep: `{\\"a\\":[1]}`');
    expect(message.text).toBe('Matching policies 3 · end of the list.');
  });

  it('assignments and the unassign form fit and stay inert', () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({
      identifier_id: 9000 + i,
      identifier_name: `${HOSTILE} ${'n'.repeat(500)}`,
      clean_past_events: i % 2 === 0,
      assigned_at: '2026-11-01T00:00:00Z',
    }));
    const list = renderAssignments({
      policyUuid: UUID,
      rows,
      first: 26,
      ctxId: 'ABCDEFGHIJKL',
      nextRef: 'ABCDEFGHIJKL',
    });
    expect(checkBlockKitLimits(list, 'message')).toEqual([]);
    expect(inert(list.blocks)).not.toMatch(CONTROL);
    const row = rows[0] ?? rows[1];
    if (!row) throw new Error('no row');
    const modal = renderUnassignModal(
      { policyUuid: UUID, identifierId: row.identifier_id, identifierName: row.identifier_name },
      'ABCDEFGHIJKL',
    );
    // Input blocks are checked by the fake Slack's views.open in the end-to-end tests.
    expect(inert(modal)).not.toMatch(CONTROL);
  });

  it('says a 422 field in plain words', () => {
    expect(plainField('body.identifier_ids.0')).toBe('identifier ids (item 1)');
    expect(plainField('query.size')).toBe('size');
    expect(
      fieldProblemsText([{ field: 'body.clean_past_events', message: 'Input should be a valid boolean' }]),
    ).toBe('• clean past events: Input should be a valid boolean');
  });
});

describe('recommendations', () => {
  it('renders each type, unknown ones generically, inert', () => {
    const items: Recommendation[] = [
      {
        id: 1,
        data: { type: 'domain', fqdn: 'shop.acme.example' },
        status: 'recommended',
        relevancy: 'HIGH',
      },
      { id: 2, data: { type: 'email', email: `${HOSTILE}@x` } },
      { id: 3, data: { type: 'username', username: 'admin' } },
      { id: 4, data: { type: 'azure_tenant', tenant_id: UUID } },
      { id: 5, data: { type: 'mystery', thing: HOSTILE } },
    ] as Recommendation[];
    const message = renderRecommendations({
      items,
      first: 11,
      filters: 'type:domain',
      nextRef: 'ABCDEFGHIJKL',
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('*Domain* · `shop.acme.example`');
    expect(text).toContain('*Azure tenant* · `3f2b9c1e');
    expect(text).toContain('*Mystery* · Thing: `');
    expect(inert(message.blocks)).not.toMatch(CONTROL);
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(message.text).toBe('Identifier recommendations 11–15 · more follow.');
  });
});

describe('reports', () => {
  const report: ApiReport = {
    id: 1,
    title: HOSTILE.repeat(10),
    subtitle: HOSTILE,
    summary: `${HOSTILE}\n`.repeat(400),
    content: '',
    tags: Array.from({ length: 40 }, () => HOSTILE),
    highlights: Array.from({ length: 20 }, () => `<mark>${HOSTILE}</mark>`),
    related_activity_uids: Array.from({ length: 120 }, (_, i) => `leak/source/${i}/with/slashes`),
    created_at: '2026-11-01T00:00:00Z',
  };

  it('renders every state within the limits, inert', () => {
    for (const status of ['processing', 'completed', 'error', 'something-new']) {
      const message = renderReport({
        requestUuid: UUID,
        status,
        report: status === 'completed' ? report : null,
        errorMessage: HOSTILE,
      });
      expect(checkBlockKitLimits(message, 'message')).toEqual([]);
      expect(inert(message)).not.toMatch(CONTROL);
    }
  });

  it('puts an Explain button on related events, the uid as its value', () => {
    const message = renderReport({ requestUuid: UUID, status: 'completed', report });
    const json = JSON.stringify(message.blocks);
    expect(json).toContain(
      '"action_id":"report_explain:0","text":{"type":"plain_text","text":"Explain"},"value":"leak/source/0/with/slashes"',
    );
    expect(json).toContain('100 more related events are not listed');
  });
});

describe('sandbox', () => {
  it('the form has one file input and says the cap', () => {
    const modal = renderUploadModal(100 * 1024 * 1024, 'C0GENERAL');
    expect(JSON.stringify(modal)).toContain('"type":"file_input"');
    expect(JSON.stringify(modal)).toContain('up to 100 MB');
  });

  it('a failure keeps a hostile file name inert', () => {
    const message = renderUploadFailed(HOSTILE, 'The file is 2 MB.', 'Send a smaller one.');
    expect(inert(message.blocks)).not.toMatch(CONTROL);
  });
});
