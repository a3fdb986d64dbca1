/**
 * The builders of finding and triage keep Block Kit's limits whatever the data: the tag multi-select (at most
 * 100 options, texts of 75, values of 150, initial options among the options), the triage form, identifier
 * lists and pickers, recommendation rows with their buttons.
 */
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Recommendation } from '../../../src/api/index.js';
import { readTags, tagFields } from '../../../src/domain/events/tags.js';
import { renderTriageModal } from '../../../src/domain/events/triage-blocks.js';
import {
  renderIdentifierPicker,
  renderIdentifiers,
  renderNoIdentifier,
} from '../../../src/domain/identifier-blocks.js';
import type { KnownIdentifier } from '../../../src/domain/identifiers.js';
import { renderRecommendations } from '../../../src/features/recommendations/blocks.js';
import { checkBlockKitLimits } from '../../slack/kit/support/block-kit-limits.js';

type Obj = Record<string, unknown>;

/** The limits of input blocks the shared checker does not cover (Slack's Block Kit reference). */
function inputProblems(blocks: readonly unknown[]): string[] {
  const out: string[] = [];
  blocks.forEach((raw, i) => {
    const b = raw as Obj;
    if (b.type !== 'input') return;
    const label = (b.label as Obj).text as string;
    if (label.length > 2000) out.push(`${i}: label too long`);
    const el = b.element as Obj;
    const options = (el.options as Obj[] | undefined) ?? [];
    if (el.type === 'multi_static_select' || el.type === 'static_select') {
      if (options.length < 1 || options.length > 100) out.push(`${i}: ${options.length} options`);
      const values = new Set<string>();
      for (const o of options) {
        const text = (o.text as Obj).text as string;
        if (text.length === 0 || text.length > 75) out.push(`${i}: option text ${text.length}`);
        if (String(o.value).length > 150) out.push(`${i}: option value too long`);
        if (values.has(String(o.value))) out.push(`${i}: duplicate option ${String(o.value)}`);
        values.add(String(o.value));
      }
      const initial =
        (el.initial_options as Obj[] | undefined) ?? (el.initial_option ? [el.initial_option as Obj] : []);
      for (const o of initial)
        if (!values.has(String(o.value))) out.push(`${i}: initial option not among options`);
    }
    if (el.type === 'plain_text_input') {
      const max = el.max_length as number | undefined;
      if (max !== undefined && (max < 1 || max > 3000)) out.push(`${i}: max_length ${max}`);
      if (typeof el.initial_value === 'string' && max !== undefined && el.initial_value.length > max)
        out.push(`${i}: initial value longer than max_length`);
    }
  });
  return out;
}

const manyTags = [...Array.from({ length: 140 }, (_, i) => `tag-${i}`), 'x'.repeat(76), 'needs review'];

describe('tag fields', () => {
  it('offer at most 100 known tags of at most 75 characters, the selected ones first and checked', () => {
    const selected = ['needs review', 'tag-139', 'y'.repeat(80)];
    const blocks = tagFields({ known: 'k', added: 'a' }, { known: manyTags, selected, label: 'Tags' });
    expect(inputProblems(blocks)).toEqual([]);
    const el = (blocks[0] as unknown as Obj).element as Obj;
    const values = (el.options as Obj[]).map((o) => o.value);
    expect(values).toHaveLength(100);
    expect(values.slice(0, 2)).toEqual(['needs review', 'tag-139']);
    expect((el.initial_options as Obj[]).map((o) => o.value)).toEqual(['needs review', 'tag-139']);
    expect(blocks[1]).toMatchObject({ block_id: 'a', optional: true });
  });

  it('show only the text field when no tag is known', () => {
    const blocks = tagFields({ known: 'k', added: 'a' }, { known: [], label: 'Tags' });
    expect(blocks.map((b) => b.block_id)).toEqual(['a']);
  });

  it('read chosen then typed tags, without duplicates, refusing an over-long one', () => {
    const values = {
      k: { value: { selected_options: [{ value: 'vip' }, { value: 'finance' }] } },
      a: { value: { value: ' needs  review, vip,, ' } },
    };
    expect(readTags(values, { known: 'k', added: 'a' })).toEqual({
      tags: ['vip', 'finance', 'needs review'],
    });
    const long = { a: { value: { value: 'z'.repeat(76) } } };
    expect(readTags(long, { known: 'k', added: 'a' }).error).toContain('75');
  });
});

describe('triage form', () => {
  const base = {
    title: 'Combo list with *acme[.]com* accounts',
    uid: 'leak/pastebin/a1b2c3',
    current: { tags: ['vip'], notes: 'n'.repeat(4000), original: 'high', override: null },
    knownTags: manyTags,
    pendingId: 'AbCdEf123456',
  } as const;

  it.each([[['tags']], [['notes']], [['severity']], [['tags', 'notes', 'severity']]] as const)(
    'keeps every limit with fields %j',
    (fields) => {
      const view = renderTriageModal({ ...base, fields });
      expect(((view as unknown as Obj).title as Obj).text).toSatisfy((t: string) => t.length <= 24);
      expect(String(view.private_metadata).length).toBeLessThanOrEqual(3000);
      expect(view.blocks.length).toBeLessThanOrEqual(100);
      expect(inputProblems(view.blocks)).toEqual([]);
    },
  );

  it('says so when a note is longer than the form holds', () => {
    const view = renderTriageModal({ ...base, fields: ['notes'] });
    const note = view.blocks.find((b) => b.block_id === 'triage_note') as unknown as Obj;
    expect(((note.element as Obj).initial_value as string).length).toBe(3000);
    expect((note.hint as Obj).text).toContain('only its start is shown');
  });

  it('pre-selects the override, or "No override" naming the original', () => {
    const none = renderTriageModal({ ...base, fields: ['severity'] });
    const select = (none.blocks.find((b) => b.block_id === 'triage_severity') as unknown as Obj)
      .element as Obj;
    expect(select.initial_option).toMatchObject({ value: 'original', text: { text: 'No override (high)' } });
    const set = renderTriageModal({
      ...base,
      fields: ['severity'],
      current: { ...base.current, override: 'critical' },
    });
    const chosen = (set.blocks.find((b) => b.block_id === 'triage_severity') as unknown as Obj)
      .element as Obj;
    expect(chosen.initial_option).toMatchObject({ value: 'critical' });
  });
});

const identifier = (id: number, name: string, type = 'domain', kinds = [type]): KnownIdentifier => ({
  id,
  name,
  type,
  kinds,
  disabled: false,
});

describe('identifier lists', () => {
  const many = Array.from({ length: 10 }, (_, i) =>
    identifier(5000 + i, `${'very-long-name-'.repeat(30)}${i}.example <!channel> \`x\``),
  );

  it('keep the limits with long hostile names, and state the slice', () => {
    const list = renderIdentifiers({
      items: many,
      first: 11,
      total: 35,
      filters: 'acme type:domain',
      complete: true,
      nextRef: 'AbCdEf123456',
    });
    expect(checkBlockKitLimits(list, 'message')).toEqual([]);
    expect(list.text).toBe('Identifiers 11–20 of 35.');
    expect(JSON.stringify(list.blocks)).not.toContain('<!channel>');
    const cut = renderIdentifiers({ items: many, first: 1, total: 35, filters: '', complete: false });
    expect(cut.text).toBe('Identifiers 1–10 · end of the list.');
    expect(JSON.stringify(cut.blocks)).toContain('Only the first identifiers');
  });

  it('label identities by their attribute', () => {
    const list = renderIdentifiers({
      items: [
        identifier(1, 'ceo@acme.example', 'identity', ['identity', 'email']),
        identifier(2, 'x', 'mystery'),
      ],
      first: 1,
      total: 2,
      filters: '',
      complete: true,
    });
    const text = JSON.stringify(list.blocks);
    expect(text).toContain('E-mail · ID');
    expect(text).toContain('Other identifier · ID');
  });

  it('picker and "did you mean" keep the limits', () => {
    const picker = renderIdentifierPicker({
      name: 'acme',
      candidates: many,
      pickRef: 'AbCdEf123456',
      total: 40,
    });
    expect(checkBlockKitLimits(picker, 'message')).toEqual([]);
    expect(picker.text).toBe('40 identifiers match that name: pick one.');
    const none = renderNoIdentifier({
      name: 'acmee',
      suggestions: many.slice(0, 3),
      pickRef: 'AbCdEf123456',
    });
    expect(checkBlockKitLimits(none, 'message')).toEqual([]);
  });
});

describe('recommendation rows', () => {
  const rec = (id: number, status: string): Recommendation => ({
    id,
    data: { type: 'domain', fqdn: `shop${id}.acme.example` },
    status,
    relevancy: 'HIGH',
    updated_at: '2026-11-01T00:00:00Z',
  });

  it('offer Accept/Reject, Search its events or Look for its identifier, and page buttons, within limits', () => {
    const items = [
      rec(1, 'recommended'),
      rec(2, 'accepted'),
      rec(3, 'accepted'),
      rec(4, 'rejected'),
      ...Array.from({ length: 6 }, (_, i) => rec(10 + i, 'recommended')),
    ];
    const message = renderRecommendations({
      items,
      first: 1,
      filters: '',
      nextRef: 'NeXtReF12345',
      shownRef: 'ShOwNrEf1234',
      decisions: new Map([[2, { action: 'accept' as const, by: 'U0ADMIN01', at: 1_795_000_000_000 }]]),
      identifiers: new Map([[2, { id: 3019, name: 'shop2.acme.example' }]]),
      notice: 'Accepted by someone',
    });
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
    const ids = (message.blocks as KnownBlock[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) =>
        (b as { elements: { action_id?: string; value?: string }[] }).elements.map(
          (e) => `${e.action_id}=${e.value}`,
        ),
      );
    expect(ids).toEqual(
      expect.arrayContaining([
        'recommendation_accept:0=ShOwNrEf1234:0',
        'recommendation_reject:0=ShOwNrEf1234:0',
        'identifier_events:1=3019',
        'recommendation_recheck:2=ShOwNrEf1234:2',
        'recommendation_accept:3=ShOwNrEf1234:3',
        'recommendations_accept_page=ShOwNrEf1234',
        'recommendations_reject_page=ShOwNrEf1234',
        'recommendations_next=NeXtReF12345',
      ]),
    );
    expect(JSON.stringify(message.blocks)).toContain('Accepted by <@U0ADMIN01>');
  });
});
