/**
 * The contract test: every `/vigil` subcommand (every example its help gives, on seeded ids) and every kind
 * of button, overflow option, modal and App Home control they lead to, through the real HTTP stack, against
 * the simulated API answering with contract bodies generated from the published response schemas, lean
 * (required fields only) and rich (every field, hostile text, unknown extras). Zero contract violations
 * recorded by the simulated API, zero refusals by the fake Slack, no failure in Vigil.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerMode } from '../../packages/playground/src/sim/api/index.js';
import { SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { COMMAND } from '../../src/slack/grammar/help.js';
import { Crawler } from '../support/crawl.js';
import { helpText, SUBCOMMANDS } from '../support/grammar.js';
import { type Stack, startStack } from '../support/stack.js';

/**
 * What the fake Slack refused, read generically: any Web API call answered `ok: false` and any response_url
 * post answered with an error, so every rule the fake learns to enforce counts here too.
 */
function slackRefusals(stack: Stack): string[] {
  const calls = stack.slack.calls
    .filter((c) => c.response.ok === false)
    .map((c) => `${c.method}: ${JSON.stringify(c.response).slice(0, 600)}`);
  const posts = stack.slack.responseUrlPosts
    .filter((p) => p.status >= 400 || p.response.ok === false)
    .map((p) => `response_url ${p.status}: ${JSON.stringify(p.response).slice(0, 600)}`);
  return [...calls, ...posts];
}

/** Vigil's own failures: errors logged, and API answers it could not read or that refused its request. */
function vigilFailures(stack: Stack): string[] {
  return stack.logs.filter((line) => {
    const entry = JSON.parse(line) as { level?: string; err?: { name?: string } };
    if (entry.level === 'error' || entry.level === 'fatal') return true;
    const name = entry.err?.name ?? '';
    return /UnexpectedResponse|ValidationError/.test(name);
  });
}

/** The help examples of every subcommand, with the placeholder ids replaced by seeded ones. */
function helpExamples(stack: Stack): string[] {
  const key = stack.sim.keys[0];
  if (!key) throw new Error('no key');
  const state = stack.sim.state;
  const identifiers = state
    .identifiersOf(key.defaultTenantId)
    .map((i) => ({ id: i.id, events: state.eventsOf(i.id).length }))
    .sort((a, b) => b.events - a.events);
  const policy = state.policies.find((p) => p.tenantId === key.defaultTenantId && p.assignments.length > 0);
  const report = state.reportRequests.find((r) => r.tenantId === key.defaultTenantId && r.report !== null);
  const event = state.events.find((e) => e.tenantId === key.defaultTenantId);
  const credential = state.credentials.find((c) => c.domain !== null && c.identity_name.includes('@'));
  const otherTenant = key.tenantIds.find((t) => t !== key.defaultTenantId);
  if (!policy || !report || !event || !credential || otherTenant === undefined || identifiers.length < 2)
    throw new Error('seed lacks a fixture the examples need');
  const domain = credential.domain ?? 'acme.example';
  const swaps: [RegExp, string][] = [
    [/\b12345\b/g, String(identifiers[0]?.id)],
    [/\b678\b/g, String(identifiers[1]?.id)],
    [/3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f/g, policy.uuid],
    [/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d/g, report.uuid],
    [/leak\/breach_source\/8f3a2c/g, event.item.metadata.uid],
    [/alice@example\.com/g, credential.identity_name],
    [/login\.example\.com/g, domain],
    [/example\.com/g, domain],
    [/^tenant 42$/, `tenant ${otherTenant}`],
  ];
  const all: string[] = [];
  for (const sub of SUBCOMMANDS) {
    all.push(`help ${sub}`);
    for (const ex of helpText(sub).examples) {
      let text = ex.command.slice(COMMAND.length + 1);
      for (const [from, to] of swaps) text = text.replace(from, to);
      all.push(text);
    }
  }
  return all;
}

/** Commands that change who may act, or which tenant is used, run after the rest (then are undone). */
const LATE = /^(settings |tenant |disconnect)/;

for (const mode of ['lean', 'rich'] as AnswerMode[]) {
  describe(`contract (${mode} answers)`, () => {
    let stack: Stack;
    let crawler: Crawler;

    beforeAll(async () => {
      stack = await startStack({ sim: { answers: mode } });
      const key = stack.sim.keys[0];
      const ids = stack.sim.state.identifiersOf(key?.defaultTenantId ?? 0).map((i) => i.id);
      crawler = new Crawler(stack, {
        userId: SEEDED_USERS.admin,
        textInputs: {
          secret: 'AKIAIOSFODNN7EXAMPLE',
          username: 'jdoe',
          password: 'hunter2',
          identifiers: ids.slice(0, 2).join(', '),
          types: 'leak, stealer_log',
          tz: 'Europe/Paris',
        },
      });
    });
    afterAll(async () => {
      await stack?.close();
    });

    it('drives every subcommand, button, menu and modal with no violation, refusal or failure', async () => {
      const examples = helpExamples(stack);
      const key = stack.sim.keys[0];
      for (const text of examples.filter((t) => !LATE.test(t))) await crawler.command(text);
      // Report requests in every state, reports with many related events, and a digest of each kind.
      for (const r of stack.sim.state.reportRequests.filter((x) => x.tenantId === key?.defaultTenantId))
        await crawler.command(`report ${r.uuid}`);
      const digests = await stack.repos.digestSubscriptions.list(stack.workspaceId);
      for (const d of digests) {
        await crawler.command(`digest preview ${d.id}`);
      }
      await crawler.homeOpened();
      await crawler.messageShortcut('send_to_sandbox');
      for (const text of examples.filter((t) => LATE.test(t) && !t.startsWith('disconnect')))
        await crawler.command(text);
      await crawler.command(`tenant ${key?.defaultTenantId}`);
      for (const what of ['act', 'reveal', 'export', 'unassign'])
        await crawler.command(`settings ${what} everyone`);
      for (const d of digests) await crawler.command(`digest remove ${d.id}`);
      await crawler.command('disconnect');
      await crawler.finish();

      // Coverage: every subcommand ran, and the crawl reached buttons, menus and modals.
      for (const sub of SUBCOMMANDS) {
        expect(
          crawler.interactions.some((i) => i.startsWith(`command ${sub}`)),
          sub,
        ).toBe(true);
      }
      const kinds = [...crawler.done].join('\n');
      for (const needle of [
        'event_ignore:#',
        // Explain is a button on open rows and a menu option on ignored or remediated ones.
        'event_explain',
        'event_undo:#',
        'events_next_page',
        'share_in_channel',
        'creds_export',
        'policy_assignments:#',
        'home|',
      ]) {
        expect(kinds, needle).toContain(needle);
      }
      expect(crawler.interactions.filter((i) => i.startsWith('submit ')).length).toBeGreaterThanOrEqual(4);

      expect.soft(stack.sim.contractViolations).toEqual([]);
      expect.soft(slackRefusals(stack)).toEqual([]);
      expect(vigilFailures(stack)).toEqual([]);
    }, 300_000);
  });
}
