/** The playground's Block Kit renderer: every block type the page shows, mrkdwn, and hostile text. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  blocksHtml,
  findElement,
  messageBodyHtml,
  type RenderContext,
} from '../../src/playground/render/blocks.js';
import { formatSlackDate } from '../../src/playground/render/dates.js';
import { emojiCss, knownShortcodes } from '../../src/playground/render/emoji.js';
import { mrkdwnToHtml } from '../../src/playground/render/mrkdwn.js';
import { modalHtml } from '../../src/playground/render/views.js';

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);
const ctx: RenderContext = {
  timeZone: 'Europe/Paris',
  nowMs: NOW,
  userName: (id) => ({ U0ADMIN01: 'adam' })[id],
  channelName: (id) => ({ C0GENERAL: 'general' })[id],
  directory: { users: [{ id: 'U0ADMIN01', name: 'adam' }], channels: [{ id: 'C0GENERAL', name: 'general' }] },
};
const md = (text: string) => mrkdwnToHtml(text, ctx);
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });

/** Every tag the renderer may emit; anything else in the output came from the input. */
const ALLOWED_TAGS = new Set(
  'a b i s code pre blockquote br div span h2 h3 hr time button dialog select option input textarea label img figure ul ol li form'.split(
    ' ',
  ),
);
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => (m[1] ?? '').toLowerCase());
}
/** Attribute names of every tag, read with quoted values blanked (text in a value is not an attribute). */
function attributesOf(html: string): string[] {
  return [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((m) =>
    [...m[0].replace(/"[^"]*"/g, '""').matchAll(/\s([a-zA-Z-]+)(?==|\s|>)/g)].map((a) =>
      (a[1] ?? '').toLowerCase(),
    ),
  );
}

describe('mrkdwn', () => {
  it('renders bold, italic, strike, code, preformatted text and quotes', () => {
    expect(md('*bold* _it_ ~gone~ `x < y`')).toBe('<b>bold</b> <i>it</i> <s>gone</s> <code>x &lt; y</code>');
    expect(md('```\nline *1*\nline 2```')).toBe('<pre>line *1*\nline 2</pre>');
    expect(md('> quoted\nplain')).toBe('<blockquote>quoted</blockquote>plain');
    expect(md('a\nb')).toBe('a<br>b');
  });

  it('leaves markers inside words alone (identifiers such as stealer_log)', () => {
    expect(md('type stealer_log and 2*3*4')).toBe('type stealer_log and 2*3*4');
  });

  it('renders http(s) links, and only those', () => {
    expect(md('<https://example.com/a?b=1&amp;c=2|the portal>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">the portal</a>',
    );
    expect(md('<javascript:alert(1)|click>')).toBe('click');
    expect(md('<data:text/html,hi>')).toBe('data:text/html,hi');
  });

  it('names users and channels, and renders special mentions', () => {
    expect(md('by <@U0ADMIN01> in <#C0GENERAL>')).toBe(
      'by <span class="mention mention-user">@adam</span> in <span class="mention mention-channel">#general</span>',
    );
    expect(md('<@U0UNKNOWN|someone>')).toContain('@someone');
    expect(md('<!here>')).toContain('@here');
  });

  it("shows <!date> in the reader's time zone, with the fallback never used when the format is known", () => {
    // 2026-11-23 08:30 UTC is 09:30 in Paris.
    const ts = Date.UTC(2026, 10, 23, 8, 30) / 1000;
    expect(md(`<!date^${ts}^{date_short_pretty} at {time}|fallback>`)).toBe(
      `<time datetime="2026-11-23T08:30:00.000Z">Today at 9:30 AM</time>`,
    );
    expect(mrkdwnToHtml(`<!date^${ts}^{time}|x>`, { ...ctx, timeZone: 'America/New_York' })).toContain(
      '3:30 AM',
    );
    expect(md(`<!date^${ts}^{date_num} {date}^https://example.com/x|fb>`)).toContain(
      'href="https://example.com/x"',
    );
  });

  it('formats every date token', () => {
    const ts = Date.UTC(2026, 10, 20, 17, 5, 9) / 1000;
    expect(formatSlackDate(ts, '{date_num}|{date}|{date_short}|{date_long}', 'UTC', NOW)).toBe(
      '2026-11-20|November 20th, 2026|Nov 20, 2026|Friday, November 20th, 2026',
    );
    expect(formatSlackDate(ts, '{time}|{time_secs}|{ago}|{date_pretty}', 'UTC', NOW)).toBe(
      '5:05 PM|5:05:09 PM|2 days ago|November 20th, 2026',
    );
    expect(formatSlackDate(NOW / 1000 - 86_400, '{date_long_pretty}', 'UTC', NOW)).toBe('Yesterday');
  });

  it('draws emoji shortcodes and severity circles itself, without needing an emoji font', () => {
    expect(md(':warning: :red_circle:')).toBe(
      '<span class="emoji emoji-warning" role="img" aria-label="warning" title=":warning:"></span> ' +
        '<span class="dot dot-red" role="img" aria-label="red circle"></span>',
    );
    expect(md(':+1:')).toContain('class="emoji emoji-plus1"');
    expect(md(':not_an_emoji:')).toBe(':not_an_emoji:');
    // Drawn from the page's own stylesheet: an SVG as a data URL, nothing fetched from elsewhere.
    const css = emojiCss();
    expect(css).toContain('.emoji-warning{background-image:url("data:image/svg+xml,');
    expect(css).not.toMatch(/url\("?https?:/);
  });

  it("draws every shortcode Vigil's messages use", () => {
    // Every module of Vigil that builds text for Slack (the tests run from the repository root).
    const sources = ['src/slack', 'src/domain', 'src/features'].flatMap((dir) =>
      readdirSync(dir, { recursive: true })
        .map((f) => `${dir}/${String(f)}`)
        .filter((f) => f.endsWith('.ts')),
    );
    const used = new Set<string>();
    for (const path of sources) {
      const text = readFileSync(path, 'utf8');
      // A shortcode in a message: after a quote, a backtick or a space, before a space or the end of the string.
      for (const m of text.matchAll(/[\s'`"]:([a-z][a-z0-9_+]*):(?=[\s'`"]|$)/gm)) used.add(m[1] ?? '');
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !knownShortcodes().includes(name))).toEqual([]);
  });
});

describe('blocks', () => {
  it('renders a header, a section with text, fields and a button accessory, a context and a divider', () => {
    const html = blocksHtml(
      [
        { type: 'header', text: plain('Events :mag:') },
        {
          type: 'section',
          block_id: 's1',
          text: mrkdwn('*3 events*'),
          fields: [mrkdwn('*Severity*\nhigh'), mrkdwn('*Type*\nleak')],
          accessory: { type: 'button', action_id: 'more', text: plain('More'), value: 'v1' },
        },
        {
          type: 'context',
          elements: [
            mrkdwn('matched `3001`'),
            { type: 'image', image_url: 'https://x.example/i.png', alt_text: 'logo' },
          ],
        },
        { type: 'divider' },
      ],
      ctx,
    );
    expect(html).toContain(
      '<h3 class="bk-header">Events <span class="emoji emoji-mag" role="img" aria-label="mag" title=":mag:"></span></h3>',
    );
    expect(html).toContain('<div class="bk-text"><b>3 events</b></div>');
    expect(html).toContain('<div class="bk-field"><b>Severity</b><br>high</div>');
    expect(html).toContain(
      '<div class="bk-accessory"><button type="button" class="bk-button" data-block-id="s1" data-action-id="more" data-type="button">More</button></div>',
    );
    expect(html).toContain(
      '<div class="bk-context"><span>matched <code>3001</code></span><img class="bk-context-image"',
    );
    expect(html).toContain('<hr class="bk-divider">');
  });

  it('renders actions: primary and danger buttons, a confirmation dialog, selects and an overflow menu', () => {
    const blocks = [
      {
        type: 'actions',
        block_id: 'act',
        elements: [
          { type: 'button', action_id: 'ok', text: plain('Ignore'), style: 'primary', value: 'ctx:1' },
          {
            type: 'button',
            action_id: 'rm',
            text: plain('Remediate'),
            style: 'danger',
            confirm: {
              title: plain('Sure?'),
              text: mrkdwn('This is *final*'),
              confirm: plain('Do it'),
              deny: plain('No'),
              style: 'danger',
            },
          },
          {
            type: 'static_select',
            action_id: 'pick',
            placeholder: plain('Severity'),
            options: [
              { text: plain('High'), value: 'high' },
              { text: plain('Low'), value: 'low' },
            ],
            initial_option: { text: plain('Low'), value: 'low' },
          },
          { type: 'users_select', action_id: 'who', placeholder: plain('Someone') },
          { type: 'overflow', action_id: 'more', options: [{ text: plain('Share'), value: 'share' }] },
        ],
      },
    ];
    const html = blocksHtml(blocks, ctx);
    expect(html).toContain('class="bk-button bk-primary" data-block-id="act" data-action-id="ok"');
    expect(html).toContain(
      'class="bk-button bk-danger" data-block-id="act" data-action-id="rm" data-type="button" data-has-confirm="1"',
    );
    expect(html).toContain(
      '<dialog class="bk-confirm" aria-label="Sure?"><h2>Sure?</h2><div class="bk-confirm-text">This is <b>final</b></div>',
    );
    expect(html).toContain('data-confirm="confirm">Do it</button>');
    expect(html).toContain('<option value="low" selected>Low</option>');
    expect(html).toContain('<option value="U0ADMIN01">@adam</option>');
    expect(html).toContain('data-type="overflow"');
    expect(findElement(blocks, 'act', 'pick')?.element.type).toBe('static_select');
    expect(findElement(blocks, 'act', 'nope')).toBeUndefined();
  });

  it('renders images, rich text and inputs, and says so for a block it does not know', () => {
    const html = blocksHtml(
      [
        { type: 'image', image_url: 'https://x.example/chart.png', alt_text: 'chart', title: plain('Trend') },
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Hello ', style: { bold: true } },
                { type: 'user', user_id: 'U0ADMIN01' },
                { type: 'link', url: 'https://example.com', text: 'site' },
                { type: 'emoji', name: 'warning' },
              ],
            },
            {
              type: 'rich_text_list',
              style: 'ordered',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] }],
            },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'code <here>' }] },
            { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted' }] },
          ],
        },
        {
          type: 'input',
          block_id: 'q',
          label: plain('Secret'),
          element: { type: 'plain_text_input', action_id: 'v' },
          hint: plain('never stored'),
        },
        { type: 'video', title: plain('x') },
      ],
      ctx,
      { errors: { q: 'Type something' } },
    );
    expect(html).toContain(
      '<figure class="bk-image"><div class="bk-image-title">Trend</div><img src="https://x.example/chart.png" alt="chart"></figure>',
    );
    expect(html).toContain('<b>Hello </b><span class="mention mention-user">@adam</span>');
    expect(html).toContain('<ol class="rt-list rt-indent-0"><li>one</li></ol>');
    expect(html).toContain('<pre>code &lt;here&gt;</pre>');
    expect(html).toContain('<blockquote>quoted</blockquote>');
    expect(html).toContain(
      '<input type="text" class="bk-input" data-block-id="q" data-action-id="v" data-type="plain_text_input"',
    );
    expect(html).toContain('<div class="bk-input-error" role="alert">Type something</div>');
    expect(html).toContain('[video block not shown in the playground]');
  });

  it('shows the top-level text when a message has no blocks', () => {
    expect(messageBodyHtml({ text: 'Only *text*' }, ctx)).toBe('<div class="bk-text">Only <b>text</b></div>');
  });

  it('renders a modal as a labelled dialog with its inputs and buttons', () => {
    const html = modalHtml(
      'V1',
      {
        type: 'modal',
        title: plain('Search'),
        submit: plain('Go'),
        blocks: [
          {
            type: 'input',
            block_id: 'b',
            label: plain('Q'),
            element: { type: 'plain_text_input', action_id: 'a', multiline: true },
          },
        ],
      },
      ctx,
    );
    expect(html).toMatch(
      /^<div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title-V1" data-view-id="V1">/,
    );
    expect(html).toContain('<h2 id="modal-title-V1">Search</h2>');
    expect(html).toContain(
      '<textarea class="bk-input" data-block-id="b" data-action-id="a" data-type="plain_text_input" rows="4"></textarea>',
    );
    expect(html).toContain('data-view-submit>Go</button>');
  });
});

describe('hostile text', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    '<javascript:alert(1)|click me>',
    '<https://ok.example" onmouseover="alert(1)|x>',
    '*<b onclick=alert(1)>*',
    '`</code><script>x</script>`',
    '```</pre><iframe src=//evil>```',
    '<!date^1^{date}^javascript:alert(1)|d>',
    '\uE0000\uE001 placeholder smuggling',
  ];

  it.each(hostile)('never emits markup from %j', (text) => {
    const html = blocksHtml(
      [
        { type: 'header', text: plain(text) },
        { type: 'section', text: mrkdwn(text), fields: [plain(text)] },
        { type: 'context', elements: [mrkdwn(text)] },
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text },
                { type: 'link', url: text, text },
              ],
            },
          ],
        },
        {
          type: 'actions',
          block_id: text,
          elements: [
            { type: 'button', action_id: text, text: plain(text), value: text, url: text },
            { type: 'static_select', action_id: text, options: [{ text: plain(text), value: text }] },
          ],
        },
        { type: 'image', image_url: text, alt_text: text },
      ],
      ctx,
    );
    for (const tag of tagsOf(html)) expect(ALLOWED_TAGS.has(tag), `unexpected <${tag}>`).toBe(true);
    for (const name of attributesOf(html)) expect(name, `unexpected attribute ${name}`).not.toMatch(/^on/);
    // Every value is quoted: a quote in the input never closes one.
    for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g))
      expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/=[^"]/);
    expect(html).not.toMatch(/(href|src)="(?!https?:)/);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<iframe');
  });

  it('keeps attribute values quoted and escaped', () => {
    const html = blocksHtml(
      [
        {
          type: 'actions',
          block_id: 'b"x',
          elements: [{ type: 'button', action_id: "a'y", text: plain('t') }],
        },
      ],
      ctx,
    );
    expect(html).toContain('data-block-id="b&quot;x" data-action-id="a&#39;y"');
  });
});
