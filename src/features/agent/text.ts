/**
 * Text in a stream's `markdown_text` chunks and task titles. Chunks are Markdown, not mrkdwn
 * (https://docs.slack.dev/reference/methods/chat.appendStream): anything not Vigil's own — a person's words
 * read back, an identifier's name — goes inside a code span (nothing in one links, mentions or formats) or into
 * a task's plain-text title, cleaned and defanged. Pure.
 */
import { cleanAndDefang, plainText } from '../../slack/kit/text.js';

/** A `/vigil` text shown as code: backticks cannot close the span early. */
export function mdCode(s: string): string {
  return `\`${plainText(s, 300).replace(/`/g, "'")}\``;
}

/** A task's title or details: plain text, bounded (the fake and SDKs take 256 characters). */
export function taskText(s: string): string {
  return plainText(cleanAndDefang(s), 250);
}
