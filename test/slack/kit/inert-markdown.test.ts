/**
 * Upstream Markdown made inert for Slack's `markdown` block: the attacker's link shapes keep only their words,
 * formatting survives, and (property) whatever comes in, a CommonMark parser finds no link, image, definition
 * or raw HTML in what goes out.
 */
import fc from 'fast-check';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { inertMarkdown } from '../../../src/slack/kit/inert-markdown.js';

/** Every node type a CommonMark (GFM) reader finds in the text. */
function nodeTypes(markdown: string): Set<string> {
  const types = new Set<string>();
  const visit = (node: Nodes) => {
    types.add(node.type);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return types;
}
const LIVE = ['link', 'image', 'linkReference', 'imageReference', 'definition', 'html'];

describe('inert Markdown', () => {
  it.each([
    ['an escaped bracket', '[a\\]b](javascript:alert(1))', 'a]b'],
    ['nested brackets', '[[x](javascript:y) z](https://evil.example/)', 'x z'],
    ['a tel: link', '[call us](tel:+15550100)', 'call us'],
    ['a data: link', '[open](data:text/html;base64,PHNjcmlwdD4=)', 'open'],
    ['an image', '![logo](https://evil.example/x.png)', 'logo'],
    ['a reference link', '[click][r]\n\n[r]: javascript:alert(1)', 'click'],
    ['a shortcut reference', '[r]\n\n[r]: https://evil.example/', 'r'],
    ['an autolink', '<javascript:alert(1)>', 'javascript:alert(1)'],
    ['an HTML anchor', '<a href="javascript:x">y</a>', 'y'],
  ])('keeps only the words of %s', (_name, input, words) => {
    const out = inertMarkdown(input);
    for (const type of LIVE) expect(nodeTypes(out).has(type), `${type} in ${out}`).toBe(false);
    expect(out.replace(/\\/g, '')).toContain(words);
    expect(out).not.toMatch(/\]\(|\]:\s*\S|<[a-z!@#]/i);
  });

  it('keeps the formatting: headings, emphasis, lists, quotes, code and tables', () => {
    const out = inertMarkdown(
      '## Key findings\n\n**Bold** and _italic_ and ~~gone~~.\n\n- one\n- two\n\n> quoted\n\n`code`\n\n| a | b |\n| - | - |\n| 1 | 2 |',
    );
    const types = nodeTypes(out);
    for (const type of [
      'heading',
      'strong',
      'emphasis',
      'delete',
      'list',
      'blockquote',
      'inlineCode',
      'table',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
    expect(out).toContain('## Key findings');
  });

  it('defangs URLs and domains in the prose and breaks broadcasts and mentions', () => {
    const out = inertMarkdown('See https://evil.example/x and www.evil.example, <!channel> @here <@U123>');
    expect(nodeTypes(out).has('link')).toBe(false);
    expect(out).not.toContain('https://evil.example');
    expect(out).not.toMatch(/<[!@]/);
    expect(out).toContain('@\u200Bhere');
  });

  it('leaves no link, image, definition or HTML whatever the input', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '!',
      '<',
      '>',
      '\\',
      ':',
      ' ',
      '\n',
      'a',
      'javascript:x',
      'https://e.example',
      '`',
      '*',
      '#',
      '|',
      '-',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const out = inertMarkdown(pieces.join(''));
        const types = nodeTypes(out);
        return LIVE.every((type) => !types.has(type));
      }),
      { numRuns: 500 },
    );
  });
});
