/**
 * Help and App Home tell people about finding and triage (identifiers, events by name or all, the event
 * menu, recommendation decisions), and the new examples work as typed against the seeded data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { EVENTS_KEY_EXAMPLES } from '../../../src/features/events/grammar-help.js';
import { textOf } from '../../harness/index.js';
import { helpText } from '../../support/grammar.js';
import type { Stack } from '../../support/stack.js';
import { command, startEventsStack } from './support/events-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

const strip = (c: string) => c.replace(/^\/vigil /, '');
const NEW_EXAMPLES = [
  ...helpText('identifiers').examples.map((e) => e.command),
  ...['by_name', 'by_phrase', 'all', 'all_tag'].map((k) => EVENTS_KEY_EXAMPLES[k]?.command ?? ''),
  '/vigil recommendations status:recommended',
  '/vigil digest add tag:vip,escalated',
];

describe('help', () => {
  it('lists identifiers and the new forms of events', async () => {
    const res = await stack.sender.slashCommand({ text: 'help', responseUrl: stack.slack.responseUrl() });
    const text = textOf(res.body);
    expect(text).toContain('/vigil identifiers [words] [type:domain,email,…]');
    expect(text).toContain('/vigil events &lt;identifier-id|name|all&gt;');
    const events = await stack.sender.slashCommand({
      text: 'help events',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(events.body)).toContain('/vigil events acme.example severity:high');
    expect(textOf(events.body)).toContain('tags, a note and a severity override');
    const recs = await stack.sender.slashCommand({
      text: 'help recommendations',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(textOf(recs.body)).toContain('Accept and Reject');
  });

  it.each(NEW_EXAMPLES.map((c) => [c]))('`%s` works as typed against the seeded data', async (example) => {
    expect(example).not.toBe('');
    const { post } = await command(stack, strip(example), { userId: SEEDED_USERS.admin });
    const text = String(post.body.text);
    expect(text).not.toMatch(/No identifier|not available|went wrong|No events|No identifiers/);
    if (example.includes(' events ')) expect(text).toMatch(/^Events 1–/);
    // A search of identifiers lists them; the verbs (add, disable…) say what they did.
    if (/ identifiers(?! (add|remove|disable|enable)\b)/.test(example))
      expect(text).toMatch(/^Identifiers 1/);
    if (/ identifiers (add|disable) /.test(example))
      expect(text).toMatch(/^Identifier .* (is now watched|is disabled)/);
  });
});

describe('App Home', () => {
  it('lists identifiers, events by name or all, and recommendation decisions', async () => {
    await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    const published = await stack.slack.waitFor(
      (c) => c.method === 'views.publish' && c.body.user_id === SEEDED_USERS.member,
    );
    const text = textOf(published.body);
    expect(text).toContain('/vigil identifiers [words] [type:…]');
    expect(text).toContain('/vigil events &lt;name&gt;');
    expect(text).toContain('/vigil events all');
    expect(text).toContain('tags, a note and a severity override');
    expect(text).toContain('with Accept and Reject');
    expect(text).toContain(
      '*Who may accept or reject identifier recommendations* (`recommend`): workspace admins only',
    );
  });
});
