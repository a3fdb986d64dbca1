/**
 * A completed report lists the related events that fit, each with Explain, and says exactly how many it
 * left out, however long its summary and highlights are.
 */
import { describe, expect, it } from 'vitest';
import type { ApiReport } from '../../src/api/index.js';
import { renderReport } from '../../src/domain/report-blocks.js';
import { buttons, textOf } from '../harness/index.js';
import { checkBlockKitLimits } from '../slack/kit/support/block-kit-limits.js';

const UUID = '0b5b0d56-0d3c-4b9a-9d1e-7f0d2b0a1c11';
const uids = (n: number) => Array.from({ length: n }, (_, i) => `leak/source/${1000 + i}`);

function report(extra: Partial<ApiReport>): ApiReport {
  return {
    id: 1,
    title: 'Credential leak at Acme',
    subtitle: 'What we found',
    summary: 'A short summary.',
    content: '',
    tags: ['acme'],
    highlights: [],
    related_activity_uids: uids(30),
    created_at: '2026-11-01T00:00:00Z',
    ...extra,
  };
}

/** How many related events the message lists (Explain buttons), and how many it says it left out. */
function related(message: { text: string; blocks: unknown[] }): { listed: number; leftOut: number } {
  const listed = buttons(message).filter((b) => b.action_id?.startsWith('report_explain:')).length;
  const m = /(\d+) more related events? (?:are |is )?not listed/.exec(textOf(message));
  return { listed, leftOut: Number(m?.[1] ?? 0) };
}

describe('related events of a completed report', () => {
  it('are listed even when the summary and highlights fill the message, and the rest is counted', () => {
    // What a rich answer holds: every optional field, long.
    const long = report({
      subtitle: 'Credential reuse across the supply chain '.repeat(20),
      summary: `${'The actor reused credentials across several services. '.repeat(40)}\n\n`.repeat(6),
      tags: Array.from({ length: 40 }, (_, i) => `tag-${i}-${'x'.repeat(120)}`),
      highlights: Array.from({ length: 8 }, () => `<mark>password</mark> ${'reuse '.repeat(60)}`),
    });
    const message = renderReport({ requestUuid: UUID, status: 'completed', report: long });
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    expect(textOf(message)).toContain('*Related events* (30)');
    const { listed, leftOut } = related(message);
    expect(listed).toBeGreaterThanOrEqual(10);
    expect(listed + leftOut).toBe(30);
  });

  it('says nothing is left out when every one is listed', () => {
    const message = renderReport({
      requestUuid: UUID,
      status: 'completed',
      report: report({ related_activity_uids: uids(5) }),
    });
    expect(related(message)).toEqual({ listed: 5, leftOut: 0 });
    expect(textOf(message)).not.toContain('not listed');
  });

  it('counts events past the first twenty and those Slack has no room for together, once', () => {
    const many = report({
      related_activity_uids: Array.from({ length: 120 }, (_, i) => `leak/${'s'.repeat(250)}/${i}`),
    });
    const message = renderReport({ requestUuid: UUID, status: 'completed', report: many });
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    const { listed, leftOut } = related(message);
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThanOrEqual(20);
    expect(listed + leftOut).toBe(120);
    expect(textOf(message).match(/not listed/g)).toHaveLength(1);
  });
});
