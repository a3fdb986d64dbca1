/**
 * Pure pieces of the playground: what the composer sends as a slash command's text (Slack's escaping and
 * channel mentions), the CSV preview of a shared file, and the revisions the page catches up with.
 */
import { describe, expect, it } from 'vitest';
import { slackCommandText } from '../../src/playground/composer.js';
import { Timeline } from '../../src/playground/conversations.js';
import { csvRows, fileCardHtml } from '../../src/playground/render/file.js';

const channels = [
  { id: 'C0GENERAL', name: 'general' },
  { id: 'C0SECURTY', name: 'security' },
];

describe('the composer', () => {
  it('sends #channel as the mention Slack sends, for channels that exist', () => {
    expect(slackCommandText('digest add #security severity:high', channels)).toBe(
      'digest add <#C0SECURTY|security> severity:high',
    );
    expect(slackCommandText('digest add #Security', channels)).toBe('digest add <#C0SECURTY|security>');
    expect(slackCommandText('digest add #nowhere', channels)).toBe('digest add #nowhere');
    // Not a channel: part of a word or a value.
    expect(slackCommandText('events 3001 keyword:a#security tag:#general1', channels)).toBe(
      'events 3001 keyword:a#security tag:#general1',
    );
  });

  it('escapes &, < and > as Slack does, so typed text cannot forge a mention', () => {
    expect(slackCommandText('events 3001 keyword:"a & b" <#C0GENERAL|x> <!here>', channels)).toBe(
      'events 3001 keyword:"a &amp; b" &lt;#C0GENERAL|x&gt; &lt;!here&gt;',
    );
  });
});

describe('a shared CSV', () => {
  it('is read for its first rows, quoted fields and CRLF included', () => {
    const csv = 'id,identity,note\r\n1,"a@x.example","said ""hi"", twice"\r\n2,b@x.example,\n3,c,d\n';
    expect(csvRows(csv, 3)).toEqual([
      ['id', 'identity', 'note'],
      ['1', 'a@x.example', 'said "hi", twice'],
      ['2', 'b@x.example', ''],
    ]);
    expect(csvRows('a,b', 5)).toEqual([['a', 'b']]);
  });

  it('shows a card with a download link and an escaped preview', () => {
    const file = { id: 'F01', name: 'export.csv', title: 'Export', size: 2048, mimetype: 'text/csv' };
    const html = fileCardHtml(file, Buffer.from('identity,value\n<script>x</script>,"=cmd()"\n'));
    expect(html).toContain('href="/playground/files/F01/export.csv"');
    expect(html).toContain('2.0 KB');
    expect(html).toContain('<th>identity</th>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(fileCardHtml(file, undefined)).toContain('No longer kept');
  });
});

describe('the timeline', () => {
  it('gives every change a newer version, and keeps the latest entries of a conversation', () => {
    const t = new Timeline({ maxEntries: 3, nowMs: () => 1_700_000_000_000 });
    t.addConversation({ id: 'C1', name: 'general', kind: 'channel', isPrivate: false, member: true });
    const welcome = t.add('C1', { kind: 'welcome', text: 'hi', blocks: undefined });
    const first = t.add('C1', { kind: 'command', text: '/vigil help', blocks: undefined });
    const v = t.version;
    if (!first) throw new Error('not added');
    t.update(first, { text: 'changed' });
    expect(first.rev).toBeGreaterThan(v);
    for (let i = 0; i < 5; i++) t.add('C1', { kind: 'ephemeral', text: String(i), blocks: undefined });
    const c = t.conversations.get('C1');
    // The welcome stays; the three latest others are kept.
    expect(c?.entries.map((e) => e.text)).toEqual(['hi', '2', '3', '4']);
    expect(t.get(first.id)).toBeUndefined();
    expect(welcome && t.get(welcome.id)?.entry.kind).toBe('welcome');
    expect(t.add('C404', { kind: 'note', text: 'x', blocks: undefined })).toBeUndefined();
  });
});
