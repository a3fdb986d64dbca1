/**
 * Upstream Markdown for Slack's `markdown` block that formats (headings, emphasis, lists, quotes, code, tables)
 * but cannot link, embed, mention or pose as Slack syntax. The text is parsed as CommonMark with GitHub's
 * extensions (mdast), links and images are replaced by their words, link definitions and raw HTML dropped to
 * text, and the tree written back as Markdown, which escapes every bracket that is text. Regular expressions
 * cannot do this: CommonMark links nest and escape (`[a\]b](javascript:…)`), and a missed one is a live link.
 * Pure.
 */
import type { Nodes, PhrasingContent, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { cleanAndDefang } from './text.js';

/** Private-use characters are Vigil's own markup elsewhere in the kit: none may come from upstream. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;

type Content = RootContent | PhrasingContent;

/** What a node becomes: itself with inert children, its words, or nothing. */
function inert(node: Content): Content[] {
  switch (node.type) {
    case 'link':
    case 'linkReference':
      return node.children.flatMap(inert);
    case 'image':
    case 'imageReference':
      return node.alt ? [{ type: 'text', value: node.alt }] : [];
    case 'definition':
    case 'footnoteDefinition':
      return [];
    case 'footnoteReference':
      return [{ type: 'text', value: `[${node.label ?? node.identifier}]` }];
    // Raw HTML is shown as the text it is (its `<` made a look-alike), never interpreted.
    case 'html':
      return [{ type: 'text', value: prose(node.value) }];
    case 'text':
    case 'inlineCode':
    case 'code':
      return [{ ...node, value: prose(node.value) }];
    default:
      if ('children' in node) (node as { children: Content[] }).children = node.children.flatMap(inert);
      return [node];
  }
}

/**
 * Each piece of text before it is written back (so the writer escapes what defanging adds): `<` never reaches
 * Slack (its mention and link syntax), broadcast words are broken, URLs and domains defanged.
 */
function prose(text: string): string {
  return cleanAndDefang(text.replace(/</g, '‹').replace(/@(channel|here|everyone)\b/gi, '@\u200B$1'));
}

export function inertMarkdown(markdown: string): string {
  const tree: Root = fromMarkdown(markdown.replace(PRIVATE_USE, ''), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  tree.children = tree.children.flatMap(inert) as Root['children'];
  const written = toMarkdown(tree as Nodes, { extensions: [gfmToMarkdown()], bullet: '-', emphasis: '_' });
  return written.trimEnd();
}
