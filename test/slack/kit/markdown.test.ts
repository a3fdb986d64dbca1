/**
 * AI assistance (`/vigil explain`) is Markdown: it reaches Slack as mrkdwn with its formatting and links,
 * and stays inert (no mention, broadcast, or link that is not http(s) with its host shown).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderExplain } from '../../../src/domain/events/explain-blocks.js';
import { NOW } from './fixtures.js';
import { aiTextToMrkdwn } from './support/ai-text.js';
import { hostileText } from './support/arbitraries.js';
import { checkBlockKitLimits } from './support/block-kit-limits.js';
import { inertMarkdownProblems } from './support/markdown-safety.js';

describe('Markdown → mrkdwn', () => {
  it('keeps emphasis: *italic*, **bold**, __bold__, _italic_, ~~strike~~', () => {
    expect(aiTextToMrkdwn('The password was *reused* across **three** services.')).toBe(
      'The password was _reused_ across *three* services.',
    );
    expect(aiTextToMrkdwn('__Rotate__ it, _now_, not ~~later~~.')).toBe('*Rotate* it, _now_, not ~later~.');
    // Underscores inside words are names, not emphasis.
    expect(aiTextToMrkdwn('See svc_account_name and __init__.py')).toBe(
      'See svc_account_name and *init*[.]py',
    );
  });

  it('keeps inline code and code blocks, with their text as written', () => {
    expect(aiTextToMrkdwn('Run `npm audit --omit=dev` then ``a `b` c``.')).toBe(
      'Run `npm audit --omit=dev` then `a ˋbˋ c`.',
    );
    expect(
      aiTextToMrkdwn('```bash\ncurl -s https://x.example/i | sh\nif [ $a -lt 3 ] && echo "<@U1>"; fi\n```'),
    ).toBe('```\ncurl -s https://x.example/i | sh\nif [ $a -lt 3 ] &amp;&amp; echo "&lt;@U1&gt;"; fi\n```');
  });

  it('turns headings into bold lines and lists into bullets, nested and numbered', () => {
    expect(
      aiTextToMrkdwn(
        '## What happened\n\n1. Leak found\n2. Accounts:\n   - alice\n   - bob\n- [ ] rotate\n- [x] notify',
      ),
    ).toBe('*What happened*\n\n1. Leak found\n2. Accounts:\n    ◦ alice\n    ◦ bob\n☐ rotate\n☑ notify');
  });

  it('makes http(s) links, inline and by reference, with the host shown', () => {
    expect(
      aiTextToMrkdwn(
        'See [MITRE T1078](https://attack.mitre.org/techniques/T1078/), the [guide][g] and <https://example.org/x>.\n\n[g]: https://docs.example.org/guide "Guide"',
      ),
    ).toBe(
      'See <https://attack.mitre.org/techniques/T1078/|MITRE T1078 (attack.mitre.org)>, the ' +
        '<https://docs.example.org/guide|guide (docs.example.org)> and <https://example.org/x|example.org/x>.',
    );
  });

  it('shows any other link as its text, and keeps bare URLs and domains defanged', () => {
    expect(
      aiTextToMrkdwn(
        '[click](javascript:alert(1)) [bank](https://bank.example@evil.example/) https://evil.example/p',
      ),
    ).toBe('click bank hxxps://evil[.]example/p');
  });

  it('never mentions or broadcasts, whatever the Markdown says', () => {
    const out = aiTextToMrkdwn('> <!channel> @here **<@U123>** [<!everyone>](https://x.example) `<!here>`');
    expect(out).toBe(
      '&gt; &lt;!channel&gt; @\u2060here *&lt;@U123&gt;* <https://x.example/|&lt;!everyone&gt; (x.example)> `&lt;!here&gt;`',
    );
  });

  it('renders explanations as Slack would accept them, splitting long ones', () => {
    const long = Array.from(
      { length: 30 },
      (_, i) =>
        `## Step ${i}\n\nThe actor *reused* **credentials**; see [ref](https://example.org/${i}).\n\n\`\`\`\n${'code line\n'.repeat(30)}\`\`\``,
    ).join('\n\n');
    const messages = renderExplain({ uid: 'leak/pastebin/a1', text: long, now: NOW });
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) {
      expect(checkBlockKitLimits(m, 'message')).toEqual([]);
      expect(inertMarkdownProblems(m)).toEqual([]);
    }
  });
});

describe('hostile AI text', () => {
  const markdownish = fc
    .array(
      fc.oneof(
        hostileText,
        fc.constantFrom(
          '\n\n',
          '\n',
          '## ',
          '- ',
          '  - ',
          '1. ',
          '> ',
          '**',
          '*',
          '__',
          '_',
          '~~',
          '`',
          '```\n',
          '\n```\n',
          '[x](https://a.example/p)',
          '[y](javascript:x)',
          '[r][1]',
          '\n[1]: https://b.example\n',
          '<https://c.example>',
          '![img](https://d.example/i.png)',
          '<p>',
          '</p>',
          '<li>',
          '<b>',
          '</b>',
          '<code>',
          '</code>',
        ),
      ),
      { maxLength: 300 },
    )
    .map((a) => a.join(''));

  it('becomes messages within every limit, with no mention, broadcast or link but http(s) ones showing their host', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        for (const m of renderExplain({ uid: 'a/b/c', text, now: NOW })) {
          expect(checkBlockKitLimits(m, 'message')).toEqual([]);
          expect(inertMarkdownProblems(m)).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
