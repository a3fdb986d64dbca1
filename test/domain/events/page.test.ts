import type { ActionsBlock, Button, ContextBlock, KnownBlock, Overflow, SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  ACTION_IDS,
  EVENT_EXPLAIN,
  EVENT_IGNORE,
  EVENT_MORE,
  EVENT_NOTE,
  EVENT_REMEDIATE,
  EVENT_SEVERITY,
  EVENT_TAGS,
  EVENT_TRIAGE,
  EVENT_UNDO,
  EVENT_UNIGNORE,
  EVENT_UNREMEDIATE,
  EVENTS_IGNORE_PAGE,
  EVENTS_NEXT_PAGE,
  eventBlockId,
  overflowValue,
  parseActionId,
  parseOverflowValue,
  renderEventGroup,
  renderEventResults,
  renderExplain,
  SHARE_IN_CHANNEL,
} from '../../../src/domain/events/page.js';
import { controlElements, type EventGroupOptions, type RowControl } from '../../../src/domain/events/row.js';
import { makeEvent, NOW } from '../../slack/kit/fixtures.js';
import { aiTextToMrkdwn } from '../../slack/kit/support/ai-text.js';
import { checkBlockKitLimits } from '../../slack/kit/support/block-kit-limits.js';
import { parseEventBlockId } from '../../slack/kit/support/event-block-id.js';

const body = (blocks: KnownBlock[]) => (blocks[0] as SectionBlock).text?.text ?? '';
const actions = (blocks: KnownBlock[]) => blocks.find((b): b is ActionsBlock => b.type === 'actions');
/** Buttons by action id, then the overflow menu's options by the action id they stand for. */
const controls = (blocks: KnownBlock[]) => {
  const elements = actions(blocks)?.elements ?? [];
  const buttons = elements.filter((e): e is Button => e.type === 'button').map((b) => b.action_id);
  const menu = elements.find((e): e is Overflow => e.type === 'overflow');
  const more = (menu?.options ?? []).map((o) => parseOverflowValue(o.value)?.actionId);
  return { buttons, more, menu };
};
/** The triage options at the end of every menu of someone who may act. */
const TRIAGE = [`${EVENT_TAGS}:0`, `${EVENT_NOTE}:0`, `${EVENT_SEVERITY}:0`];

describe('action and block ids', () => {
  it('exports the fixed action ids', () => {
    expect(ACTION_IDS).toEqual({
      ignore: 'event_ignore',
      remediate: 'event_remediate',
      unignore: 'event_unignore',
      unremediate: 'event_unremediate',
      explain: 'event_explain',
      undo: 'event_undo',
      tags: 'event_tags',
      note: 'event_note',
      severity: 'event_severity',
      triage: 'event_triage',
      snooze: 'event_snooze',
      unsnooze: 'event_unsnooze',
      stealerLog: 'event_stealer_log',
      more: 'event_more',
      nextPage: 'events_next_page',
      ignorePage: 'events_ignore_page',
      share: 'share_in_channel',
    });
  });

  it('parses suffixed and plain action ids', () => {
    expect(parseActionId('event_ignore:3')).toEqual({ base: 'event_ignore', index: 3 });
    expect(parseActionId('events_next_page')).toEqual({ base: 'events_next_page', index: undefined });
    expect(parseActionId('event_ignore:x')).toEqual({ base: 'event_ignore:x', index: undefined });
    expect(parseActionId('')).toEqual({ base: '', index: undefined });
  });

  it('round-trips overflow option values and refuses anything else', () => {
    expect(parseOverflowValue(overflowValue('event_undo:3', 'AbCdEf123456:3'))).toEqual({
      actionId: 'event_undo:3',
      value: 'AbCdEf123456:3',
    });
    for (const bad of [undefined, 42, '', 'event_undo:3', 'event_undo|x', 'event_undo:3|<@U1>'])
      expect(parseOverflowValue(bad)).toBeUndefined();
  });

  it('names every block of an event after its index', () => {
    expect(eventBlockId(4)).toBe('event:4');
    expect(eventBlockId(4, 'body')).toBe('event:4:body');
    expect(parseEventBlockId('event:4')).toBe(4);
    expect(parseEventBlockId('event:4:state')).toBe(4);
    expect(parseEventBlockId('events:tail')).toBeUndefined();
    expect(parseEventBlockId('event:4:other')).toBeUndefined();
  });
});

describe('renderEventGroup', () => {
  const opts = { now: NOW, actionRef: 'c7:0', index: 0 };

  it('renders an open event with Ignore and Remediate (danger, confirmed) as buttons, Explain and triage in the menu', () => {
    const blocks = renderEventGroup(makeEvent(), opts);
    expect(blocks).toMatchSnapshot();
    expect(controls(blocks)).toEqual({
      buttons: [`${EVENT_IGNORE}:0`, `${EVENT_REMEDIATE}:0`],
      more: [`${EVENT_EXPLAIN}:0`, 'event_snooze:0', ...TRIAGE],
      menu: expect.objectContaining({ action_id: `${EVENT_MORE}:0` }),
    });
    const remediate = actions(blocks)?.elements[1] as Button;
    expect(remediate.style).toBe('danger');
    expect(remediate.confirm).toMatchObject({
      title: { text: 'Remediate this event?' },
      confirm: { text: 'Remediate' },
      deny: { text: 'Cancel' },
      style: 'danger',
    });
    expect(remediate.confirm?.text.text).toMatch(/Unremediate undoes it/);
  });

  it('shows a running snooze with who set it and Unsnooze, and offers no Snooze… then', () => {
    const blocks = renderEventGroup(makeEvent(), {
      ...opts,
      snoozed: { until: 1795200000000, by: 'U0ALICE' },
    });
    const state = blocks.find((b) => b.block_id === 'event:0:state') as ContextBlock;
    expect(JSON.stringify(state.elements)).toContain(
      'Snoozed until <!date^1795200000^{date_short_pretty} {time}|2026-11-20 18:40 UTC> by <@U0ALICE>',
    );
    expect(controls(blocks)).toEqual({
      buttons: [`${EVENT_IGNORE}:0`, `${EVENT_REMEDIATE}:0`, 'event_unsnooze:0'],
      more: [`${EVENT_EXPLAIN}:0`, ...TRIAGE],
      menu: expect.objectContaining({ action_id: `${EVENT_MORE}:0` }),
    });
  });

  it('is compact: severity, type and title; identifiers, dates and link; the id to copy', () => {
    const text = body(renderEventGroup(makeEvent(), opts));
    expect(text.split('\n')).toEqual([
      ':large_orange_circle: *high* · *Leak* — Combo list with *acme[.]com* accounts',
      '`acme.com` · created <!date^1795098600^{date_short}|2026-11-19> · matched ' +
        '<!date^1795162500^{date_short}|2026-11-20> · tags vip · ' +
        '<https://app.flare.io/#/activity/leak/pastebin/a1b2c3|Open in portal>',
      'ID `leak/pastebin/a1b2c3`',
    ]);
  });

  it('shows ids and identifier names verbatim in code spans, so they can be copied back', () => {
    const event = makeEvent({
      metadata: { uid: 'bucket_object/azure_blob/acme/100006/files/config.yml' },
      identifiers: [{ id: 3001, name: 'acme.example' }],
    });
    const text = body(renderEventGroup(event, opts));
    expect(text).toContain('ID `bucket_object/azure_blob/acme/100006/files/config.yml`');
    expect(text).toContain('`acme.example`');
    expect(text).not.toContain('[.]example');
  });

  it('labels production type names and unknown ones', () => {
    const label = (type: string) =>
      body(renderEventGroup(makeEvent({ metadata: { type } }), opts)).split('\n')[0];
    expect(label('stealer_log')).toContain('*Stealer log*');
    expect(label('forum_post')).toContain('*Forum post*');
    expect(label('crypto_wallet')).toContain('*Other event (crypto wallet)*');
  });

  it('shows a tenant override as "medium → critical"', () => {
    const event = makeEvent({
      metadata: { severity: 'medium' },
      tenant_metadata: { severity: { original: 'medium', override: 'critical' } },
    });
    const blocks = renderEventGroup(event, opts);
    expect(body(blocks).split('\n')[0]).toBe(
      ':red_circle: *medium → critical* · *Leak* — Combo list with *acme[.]com* accounts',
    );
    expect(blocks).toMatchSnapshot();
  });

  it('offers Unignore on an ignored event and Unremediate on a remediated one, in the menu', () => {
    const ignored = renderEventGroup(
      makeEvent({ tenant_metadata: { ignored_at: '2026-11-20T10:00:00Z' } }),
      opts,
    );
    expect(controls(ignored)).toMatchObject({
      buttons: [],
      more: [`${EVENT_UNIGNORE}:0`, `${EVENT_EXPLAIN}:0`, ...TRIAGE],
    });
    expect(controls(ignored).menu?.action_id).toBe(`${EVENT_MORE}:0`);
    expect(body(ignored).split('\n')[0]).toBe(
      ':large_orange_circle: *high* · *Leak* · Ignored <!date^1795168800^{date_short}|2026-11-20> — Combo list with *acme[.]com* accounts',
    );
    expect(ignored).toMatchSnapshot();
    const remediated = renderEventGroup(
      makeEvent({ tenant_metadata: { remediated_at: '2026-11-20T10:00:00Z' } }),
      opts,
    );
    expect(controls(remediated).more).toEqual([`${EVENT_UNREMEDIATE}:0`, `${EVENT_EXPLAIN}:0`, ...TRIAGE]);
    expect(remediated).toMatchSnapshot();
  });

  it('replaces the buttons with "Ignored by @user · date" and a visible Undo once someone acted', () => {
    const blocks = renderEventGroup(makeEvent(), {
      ...opts,
      state: { action: 'ignore', by: 'U024BE7LH', at: NOW },
    });
    const context = blocks.find((b): b is ContextBlock => b.type === 'context');
    expect(context?.elements).toEqual([
      {
        type: 'mrkdwn',
        text: 'Ignored by <@U024BE7LH> · <!date^1795251600^{date_short_pretty} {time}|2026-11-21 09:00 UTC>',
      },
    ]);
    expect(controls(blocks)).toEqual({
      buttons: [`${EVENT_UNDO}:0`],
      more: [`${EVENT_EXPLAIN}:0`, ...TRIAGE],
      menu: expect.objectContaining({ action_id: `${EVENT_MORE}:0` }),
    });
    expect(blocks).toMatchSnapshot();
  });

  it('keeps the menu within 5 options: one triage option when an event is both ignored and remediated', () => {
    const both = renderEventGroup(
      makeEvent({
        tenant_metadata: { ignored_at: '2026-11-20T10:00:00Z', remediated_at: '2026-11-20T11:00:00Z' },
      }),
      opts,
    );
    const { more, menu } = controls(both);
    expect(more).toEqual([
      `${EVENT_UNIGNORE}:0`,
      `${EVENT_UNREMEDIATE}:0`,
      `${EVENT_EXPLAIN}:0`,
      `${EVENT_TRIAGE}:0`,
    ]);
    expect(menu?.options.map((o) => o.text.text)).toContain('Tags, note, severity…');
    expect(checkBlockKitLimits({ text: 'Events', blocks: both }, 'message')).toEqual([]);
  });

  it('shows the tags and whether a note exists (never the note itself)', () => {
    const text = body(
      renderEventGroup(
        makeEvent({ tenant_metadata: { tags: ['vip', 'needs review'], notes: 'Rotated <!here>' } }),
        opts,
      ),
    );
    expect(text).toContain('tags vip, needs review · :memo: note');
    expect(text).not.toContain('Rotated');
    const none = body(renderEventGroup(makeEvent({ tenant_metadata: { notes: '  ' } }), opts));
    expect(none).not.toContain(':memo:');
  });

  it('never mentions an acting user id that is not shaped like one', () => {
    const blocks = renderEventGroup(makeEvent(), {
      ...opts,
      state: { action: 'remediate', by: 'U1> <!channel', at: NOW },
    });
    const context = blocks.find((b): b is ContextBlock => b.type === 'context');
    expect(JSON.stringify(context)).toContain('Remediated by a teammate');
    expect(JSON.stringify(blocks)).not.toContain('<!channel');
  });

  it('shows only Explain to someone who cannot act', () => {
    expect(controls(renderEventGroup(makeEvent(), { ...opts, canAct: false }))).toEqual({
      buttons: [`${EVENT_EXPLAIN}:0`],
      more: [],
      menu: undefined,
    });
  });

  it('is valid Block Kit in every state: open, ignored, remediated, both, just acted, read-only', () => {
    const states: [string, Parameters<typeof renderEventGroup>[0], Partial<EventGroupOptions>][] = [
      ['open', makeEvent(), {}],
      ['ignored', makeEvent({ tenant_metadata: { ignored_at: '2026-11-20T10:00:00Z' } }), {}],
      ['remediated', makeEvent({ tenant_metadata: { remediated_at: '2026-11-20T10:00:00Z' } }), {}],
      [
        'ignored and remediated',
        makeEvent({
          tenant_metadata: { ignored_at: '2026-11-20T10:00:00Z', remediated_at: '2026-11-20T11:00:00Z' },
        }),
        {},
      ],
      ['just ignored', makeEvent(), { state: { action: 'ignore', by: 'U024BE7LH', at: NOW } }],
      ['just remediated', makeEvent(), { state: { action: 'remediate', by: 'U024BE7LH', at: NOW } }],
      [
        'read-only',
        makeEvent({ tenant_metadata: { ignored_at: '2026-11-20T10:00:00Z' } }),
        { canAct: false },
      ],
    ];
    for (const [name, event, extra] of states) {
      const blocks = renderEventGroup(event, { ...opts, ...extra });
      expect(checkBlockKitLimits({ text: name, blocks }, 'message'), name).toEqual([]);
      const menu = controls(blocks).menu;
      if (menu !== undefined) expect(menu.options.length, name).toBeGreaterThanOrEqual(2);
    }
  });

  it('uses the caller ref as every value and suffixes ids with the index', () => {
    const blocks = renderEventGroup(makeEvent(), { now: NOW, actionRef: 'ctx9:7', index: 7 });
    for (const el of actions(blocks)?.elements ?? []) {
      if (el.type === 'button') {
        expect(el.value).toBe('ctx9:7');
        expect(parseActionId(el.action_id ?? '').index).toBe(7);
      } else if (el.type === 'overflow') {
        for (const o of el.options) expect(parseOverflowValue(o.value)?.value).toBe('ctx9:7');
      }
    }
    expect(blocks.map((b) => b.block_id)).toEqual(['event:7:body', 'event:7']);
  });

  it('takes the title from a title-like highlight, else the first highlight, else shows none', () => {
    const named = makeEvent({
      highlights: { subject: ['<mark>Acme</mark> payroll'], content: ['body text'] },
    });
    expect(body(renderEventGroup(named, opts)).split('\n')[0]).toBe(
      ':large_orange_circle: *high* · *Leak* — *Acme* payroll',
    );
    const other = makeEvent({ highlights: { content: ['body <mark>text</mark>'] } });
    expect(body(renderEventGroup(other, opts)).split('\n')[0]).toBe(
      ':large_orange_circle: *high* · *Leak* — body *text*',
    );
    const bare = makeEvent({ highlights: {} });
    expect(body(renderEventGroup(bare, opts)).split('\n')[0]).toBe(':large_orange_circle: *high* · *Leak*');
  });

  it('marks an event matched in the last 24 hours as new', () => {
    const fresh = makeEvent({ metadata: { matched_at: '2026-11-21T08:00:00Z' }, highlights: {} });
    expect(body(renderEventGroup(fresh, opts)).split('\n')[0]).toBe(
      ':large_orange_circle: *high* · *Leak* · :new:',
    );
  });

  it('leaves the portal link out unless it is https on the portal host', () => {
    for (const flare_url of ['http://app.flare.io/x', 'https://evil.com/x', 'javascript:alert(1)']) {
      const text = body(renderEventGroup(makeEvent({ metadata: { flare_url } }), opts));
      expect(text).not.toContain('Open in portal');
      expect(text).not.toContain('<http');
    }
    const eu = makeEvent({ metadata: { flare_url: 'https://app.flare.io/e/1' } });
    expect(body(renderEventGroup(eu, { ...opts, portalHosts: ['app.eu.flare.io'] }))).not.toContain('<http');
    const custom = makeEvent({ metadata: { flare_url: 'https://portal.example/e/1' } });
    expect(body(renderEventGroup(custom, { ...opts, portalHosts: ['portal.example'] }))).toContain(
      '<https://portal.example/e/1|Open in portal>',
    );
  });

  it('renders a hostile event as inert text', () => {
    const hostile = makeEvent({
      metadata: { type: 'new_<!here>_type', severity: '*urgent*', uid: 'a/b/`<!here>`' },
      identifiers: [{ id: 1, name: '<@U999> https://evil.com' }],
      tenant_metadata: { tags: ['<!channel>', '`rm -rf`'] },
      highlights: {
        title: ['<mark><!subteam^S1|@all></mark> *bold* <a href="https://evil.com">click</a>'],
        description: ['&lt;mark&gt;not bold&lt;/mark&gt; > quote ~x~'],
      },
    });
    const blocks = renderEventGroup(hostile, opts);
    expect(blocks).toMatchSnapshot();
    const text = body(blocks);
    expect(text).not.toMatch(/<(?!!date\^)[!@#]|<http(?!s:\/\/app\.flare\.io\/)/);
    expect(text).toContain(':grey_question: *∗urgent∗* · *Other event (new &lt;!here&gt; type)*');
    expect(text).toContain('*&lt;!subteam^S1|@all&gt;* ∗bold∗ click');
    // In a code span Slack links nothing: the name stays as typed, only `<` and `>` escaped.
    expect(text).toContain('`&lt;@U999&gt; https://evil.com`');
    expect(text).toContain('ID `a/b/ˋ&lt;!here&gt;ˋ`');
    expect(text).toContain('tags &lt;!channel&gt;, ˋrm -rfˋ');
  });

  it('caps huge highlights so one event cannot fill a message', () => {
    const huge = 'A'.repeat(50_000);
    const event = makeEvent({
      highlights: { title: [huge, huge], description: Array(5000).fill(`x ${huge}`) },
    });
    const text = body(renderEventGroup(event, opts));
    expect(text.length).toBeLessThan(1000);
  });
});

describe('renderEventResults', () => {
  const base = {
    identifier: { id: 42, name: 'acme.com' },
    querySummary: 'severity:high',
    now: NOW,
    refs: (i: number) => `c7:${i}`,
    pageNumber: 1,
  };

  it('renders a page: the slice, one row per event, then Next page, Ignore all and Share', () => {
    const events = [
      makeEvent(),
      makeEvent({ metadata: { uid: 'paste/x/2', type: 'paste', severity: 'critical' } }),
      makeEvent({ metadata: { uid: 'forum_content/y/3', type: 'forum_content' } }),
    ];
    const r = renderEventResults({
      ...base,
      events,
      more: true,
      nextPageRef: 'c7:next',
      ignorePageRef: 'c7:ignore',
      shareRef: 'c7:share',
      states: new Map([['paste/x/2', { action: 'remediate' as const, by: 'U024BE7LH', at: NOW }]]),
    });
    expect(r).toMatchSnapshot();
    expect(r.text).toBe('Events 1–3 for identifier acme[.]com (42) · severity:high · more on the next page');
    expect((r.blocks[0] as SectionBlock).text?.text).toBe(
      '*Events 1–3* for identifier `acme.com` (`42`) · `severity:high` · more on the next page',
    );
    expect(r.includedEvents).toBe(3);
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
    const tail = r.blocks.at(-1) as ActionsBlock;
    expect(tail.elements.map((e) => (e as Button).action_id)).toEqual([
      EVENTS_NEXT_PAGE,
      EVENTS_IGNORE_PAGE,
      SHARE_IN_CHANNEL,
    ]);
    expect((tail.elements[1] as Button).confirm?.title?.text).toBe('Ignore all on this page?');
  });

  it('states the slice of a later page and whether more exist, never a total', () => {
    const ten = Array.from({ length: 10 }, (_, i) => makeEvent({ metadata: { uid: `leak/s/${i}` } }));
    const second = renderEventResults({ ...base, events: ten, pageNumber: 2, offset: 10, more: true });
    expect(second.text).toBe(
      'Events 11–20 for identifier acme[.]com (42) · severity:high · more on the next page',
    );
    const last = renderEventResults({ ...base, events: ten.slice(0, 4), pageNumber: 3, offset: 20 });
    expect(last.text).toBe(
      'Events 21–24 for identifier acme[.]com (42) · severity:high · no more after these',
    );
    expect(last.blocks.some((b) => b.block_id === 'events:tail')).toBe(false);
    const one = renderEventResults({
      ...base,
      identifier: { id: 42 },
      querySummary: '',
      events: [makeEvent()],
    });
    expect(one.text).toBe('Events 1 for identifier 42 · no more after these');
  });

  it('never offers "Ignore all" to someone who cannot act', () => {
    const r = renderEventResults({ ...base, events: [makeEvent()], ignorePageRef: 'c7:i', canAct: false });
    expect(JSON.stringify(r.blocks)).not.toContain(EVENTS_IGNORE_PAGE);
  });

  it('offers Share only with events to share, and asks to confirm it', () => {
    const empty = renderEventResults({ ...base, events: [], shareRef: 'c7:s' });
    expect(JSON.stringify(empty.blocks)).not.toContain('Share in channel');
    const page = renderEventResults({ ...base, events: [makeEvent()], shareRef: 'c7:s' });
    const tail = page.blocks.find((b) => b.block_id === 'events:tail') as unknown as {
      elements: Array<Record<string, unknown>>;
    };
    const share = tail.elements.find((e) => (e.text as { text: string }).text === 'Share in channel');
    expect(share?.confirm).toMatchObject({ confirm: { text: 'Share' }, deny: { text: 'Cancel' } });
  });

  it('explains an empty result: what was searched and how to broaden it', () => {
    const r = renderEventResults({ ...base, events: [] });
    expect(r).toMatchSnapshot();
    expect(r.text).toBe('No events for identifier acme[.]com (42) matching severity:high.');
    expect(JSON.stringify(r.blocks)).toContain('matching `severity:high`');
    expect(JSON.stringify(r.blocks)).toMatch(/severity:info/);
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
  });

  it('keeps paging past an empty page that is not the last', () => {
    const r = renderEventResults({
      ...base,
      events: [],
      emptyPageButMore: true,
      nextPageRef: 'c7:n',
      pageNumber: 2,
    });
    expect(r.text).toBe(
      'No events on page 2 for identifier acme[.]com (42) matching severity:high, but there are more results.',
    );
    expect(JSON.stringify(r.blocks)).toContain(EVENTS_NEXT_PAGE);
  });

  it('reports events left out when a page does not fit in one message, and states the slice shown', () => {
    const huge = (i: number) =>
      makeEvent({
        metadata: { uid: `leak/s/${i}/${'u'.repeat(300)}` },
        highlights: { title: [`t${i} ${'w '.repeat(200)}`], description: ['d '.repeat(400)] },
        identifiers: Array.from({ length: 5 }, (_, j) => ({
          id: j,
          name: `identifier-${j}-${'n'.repeat(90)}`,
        })),
        tenant_metadata: { tags: Array.from({ length: 5 }, (_, j) => `tag-${j}-${'t'.repeat(30)}`) },
      });
    const r = renderEventResults({
      ...base,
      events: Array.from({ length: 20 }, (_, i) => huge(i)),
      nextPageRef: 'n',
      more: true,
    });
    expect(r.includedEvents).toBeGreaterThan(0);
    expect(r.includedEvents + r.omittedEvents).toBe(20);
    expect(r.omittedEvents).toBeGreaterThan(0);
    expect(r.text).toBe(
      `Events 1–${r.includedEvents} for identifier acme[.]com (42) · severity:high · more on the next page`,
    );
    expect(JSON.stringify(r.blocks)).toContain(`${r.omittedEvents} more events on this page did not fit`);
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
  });
});

describe('renderExplain', () => {
  it('renders AI Markdown as mrkdwn, keeping its formatting but no mention or bare link', () => {
    const messages = renderExplain({
      uid: 'leak/pastebin/a1b2c3',
      text: '## Summary\n\n**Risk**: high <!channel>.\n\n- Reset <b>j.doe@acme.com</b>\n* Watch https://evil.com',
      now: NOW,
    });
    expect(messages).toMatchSnapshot();
    expect(messages).toHaveLength(1);
    const [first] = messages;
    expect(first?.text).toBe('AI assistance for event `leak/pastebin/a1b2c3`');
    expect(((first?.blocks ?? [])[1] as SectionBlock | undefined)?.text?.text).toBe(
      '*Summary*\n\n*Risk*: high &lt;!channel&gt;.\n\n• Reset *j[.]doe@acme[.]com*\n• Watch hxxps://evil[.]com',
    );
  });

  it('splits long text into several messages within every limit', () => {
    const paragraph = `${'The actor posted credentials for several services. '.repeat(30)}\n\n`;
    const messages = renderExplain({ uid: 'a/b/c', text: paragraph.repeat(40), now: NOW });
    expect(messages.length).toBeGreaterThan(1);
    messages.forEach((m, i) => {
      expect(checkBlockKitLimits(m, 'message')).toEqual([]);
      if (i > 0) expect(m.text).toBe(`AI assistance for event \`a/b/c\` (part ${i + 1})`);
    });
  });

  it('says so when there is no text', () => {
    const messages = renderExplain({ uid: 'a/b/c', text: ' \n ', now: NOW });
    expect(messages.map((m) => m.text)).toEqual(['No AI assistance is available for event `a/b/c` yet.']);
  });
});

describe('aiTextToMrkdwn', () => {
  it('converts Markdown and the HTML it mixes in to mrkdwn (markdown.test.ts has the details)', () => {
    expect(aiTextToMrkdwn('# Title\n```js\ncode()\n```\n**under** <em>x</em> <p>para</p>')).toBe(
      '*Title*\n\n```\ncode()\n```\n\n*under* _x_ para',
    );
  });
});

describe('controlElements', () => {
  const items = (n: number): RowControl[] =>
    Array.from({ length: n }, (_, i) => ({ label: `Item ${i}`, base: `event_item${i}` }));
  const shape = (menu: number) =>
    controlElements({ buttons: [{ label: 'Ignore', base: EVENT_IGNORE }], menu: items(menu) }, 2, 'c1:2').map(
      (e) => (e.type === 'overflow' ? `menu(${e.options.length})` : e.action_id),
    );

  it('shows a menu only with 2 to 5 options: one is a button, more than five spill over as buttons', () => {
    expect(shape(0)).toEqual(['event_ignore:2']);
    expect(shape(1)).toEqual(['event_ignore:2', 'event_item0:2']);
    expect(shape(2)).toEqual(['event_ignore:2', 'menu(2)']);
    expect(shape(5)).toEqual(['event_ignore:2', 'menu(5)']);
    expect(shape(7)).toEqual(['event_ignore:2', 'menu(5)', 'event_item5:2', 'event_item6:2']);
  });

  it('gives every option the value its button would have carried', () => {
    const [menu] = controlElements({ buttons: [], menu: items(2) }, 4, 'ctx:4');
    expect(menu?.type === 'overflow' && menu.options.map((o) => parseOverflowValue(o.value))).toEqual([
      { actionId: 'event_item0:4', value: 'ctx:4' },
      { actionId: 'event_item1:4', value: 'ctx:4' },
    ]);
  });
});
