/**
 * Slack rations `conversations.history` and `conversations.replies` to one request a minute (15 messages a
 * page) for apps outside the Marketplace (https://docs.slack.dev/changelog/2025/05/29/tos-updates), so
 * nothing on Vigil's own path may read a conversation: its recoveries read its own records. A feature a person
 * uses that truly needs a conversation goes in ALLOWED with why, and reads only a DM with Vigil (`im:history`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Source file (relative to the repository) → the feature a person uses that reads conversations. */
const ALLOWED: Record<string, string> = {
  'src/features/agent/context.ts':
    'the agent DM: the thread a person asks about ("ignore that one"), in their DM with Vigil',
  'src/features/ask-person/slack.ts':
    'ask the affected person: after a crash, the DM is looked for in that DM before it is sent again (one DM, issue 41)',
};

/** A call through the Web API client (`client.conversations.history(`) or by name (`apiCall('conversations.replies')`). */
const RATIONED =
  /\bconversations\s*(?:\.\s*|\[\s*['"`])(?:history|replies)\b|['"`]conversations\.(?:history|replies)['"`]/;

/** The code without its comments (which may name the methods, as this file's do). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return sources(path);
      return Promise.resolve(/\.(?:ts|js|mjs|cjs)$/.test(e.name) ? [path] : []);
    }),
  );
  return nested.flat();
}

describe('rationed history reads', () => {
  it('the pattern finds every way of calling them, and not a mere mention of the unfurl source', () => {
    for (const call of [
      'await client.conversations.history({ channel })',
      'client.conversations.replies({ channel, ts })',
      "client.apiCall('conversations.history', {})",
      'client.conversations["replies"]({})',
    ])
      expect(RATIONED.test(call), call).toBe(true);
    expect(RATIONED.test("source === 'conversations_history'")).toBe(false);
    expect(RATIONED.test(code('/** reads no conversations.history */\n// nor conversations.replies'))).toBe(
      false,
    );
    expect(RATIONED.test(code("const url = 'https://x'; client.conversations.history({})"))).toBe(true);
  });

  it('no source file in src/ calls conversations.history or conversations.replies outside the allow-list', async () => {
    const files = await sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const callers: string[] = [];
    for (const file of files) {
      if (RATIONED.test(code(await readFile(file, 'utf8')))) callers.push(relative(ROOT, file));
    }
    expect(callers.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
