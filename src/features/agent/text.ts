/**
 * Text in a stream's `markdown_text` chunks and task titles. Chunks are Markdown, not mrkdwn
 * (https://docs.slack.dev/reference/methods/chat.appendStream): anything not Vigil's own — a person's words
 * read back, an identifier's name — is cleaned, defanged and has every Markdown control character escaped, so it
 * cannot link, mention or format. Pure.
 */
import { cleanAndDefang, plainText } from '../../slack/kit/text.js';

/** Markdown's punctuation that can start or end formatting, escaped with a backslash (CommonMark §2.4). */
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()#+\-.!|~>]/g;

/** Upstream or typed text, inert in a `markdown_text` chunk. */
export function mdText(s: string, max = 300): string {
  const clean = cleanAndDefang(plainText(s, max))
    .replace(/</g, '‹')
    .replace(/&/g, '＆')
    .replace(/@(channel|here|everyone)\b/gi, '@\u200B$1');
  return clean.replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`);
}

/** A `/vigil` text shown as code: backticks cannot close the span early. */
export function mdCode(s: string): string {
  return `\`${plainText(s, 300).replace(/`/g, "'")}\``;
}

/** A task's title or details: plain text, bounded (the fake and SDKs take 256 characters). */
export function taskText(s: string): string {
  return plainText(cleanAndDefang(s), 250);
}
