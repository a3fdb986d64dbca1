/**
 * `/metrics` through the whole stack: signed commands into the real receiver, API calls against the simulated
 * API, scraped and parsed with Prometheus' own text-format parser. Off by default; on a port of its own with
 * VIGIL_METRICS_PORT (loopback), never on Slack's `PORT`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_TEAM_ID,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { command } from '../features/lists/support.js';
import { histogramCount, labelValues, sampleSum, scrape } from '../support/prometheus.js';
import { type Stack, startStack } from '../support/stack.js';

describe('/metrics off by default', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is not served, and no port of its own is opened', async () => {
    const res = await fetch(`${stack.vigil.url}/metrics`);
    expect(res.status).toBe(404);
    expect(stack.vigil.metricsPort).toBeUndefined();
  });
});

describe('/metrics (VIGIL_METRICS=1 on VIGIL_METRICS_PORT)', () => {
  let stack: Stack;
  const url = () => `http://127.0.0.1:${stack.vigil.metricsPort}/metrics`;
  beforeAll(async () => {
    stack = await startStack({ env: { VIGIL_METRICS: '1', VIGIL_METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('parses as Prometheus text with process metrics on a registry of its own', async () => {
    const { status, contentType, families } = await scrape(url());
    expect(status).toBe(200);
    // Slack's port faces the internet: never there, even with VIGIL_METRICS=1.
    expect((await fetch(`${stack.vigil.url}/metrics`)).status).toBe(404);
    expect(contentType).toContain('text/plain');
    const names = families.map((f) => f.name);
    expect(names).toContain('process_cpu_user_seconds_total');
    expect(names).toContain('nodejs_heap_size_used_bytes');
    for (const name of [
      'vigil_slack_requests_total',
      'vigil_slack_ack_seconds',
      'vigil_api_requests_total',
      'vigil_api_retries_total',
      'vigil_api_rate_limited_total',
      'vigil_api_rate_budget_waits_total',
      'vigil_alert_delay_seconds',
      'vigil_alert_follow_delay_seconds',
      'vigil_store_errors_total',
      'vigil_queue_depth',
    ]) {
      expect(names).toContain(name);
    }
    const depths = families.find((f) => f.name === 'vigil_queue_depth');
    expect(depths?.metrics.map((m) => m.labels?.queue).sort()).toEqual([
      'alert_events',
      'alert_follow_ups',
      'digest_runs',
      'exports',
    ]);
  });

  it('counts commands, their acks and the API calls they make, by route template and status', async () => {
    const first = await scrape(url());
    const before = first.families;
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    const uuid = '0b7d4c2e-5f1a-4e3b-9a8c-1d2e3f4a5b6c';
    await command(stack, `report ${uuid}`, { userId: SEEDED_USERS.member });
    const second = await scrape(url());
    const after = second.families;

    const moved = (name: string, labels: Record<string, string>) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('vigil_slack_requests_total', { kind: 'command', outcome: 'acked' })).toBe(2);
    const acks = (text: string) => histogramCount(text, 'vigil_slack_ack_seconds', { kind: 'command' });
    expect(acks(second.text) - acks(first.text)).toBe(2);
    expect(moved('vigil_api_requests_total', { route: '/tokens/test', status: '200' })).toBe(1);
    const reportCalls = after
      .find((f) => f.name === 'vigil_api_requests_total')
      ?.metrics.filter((m) => m.labels?.route?.includes('threat_flow'));
    expect(reportCalls?.length).toBeGreaterThan(0);
    for (const m of reportCalls ?? []) expect(m.labels?.route).toMatch(/\/requests\/\{id\}$/);

    // Bounded labels only: no id, user, channel, team or secret, whatever the traffic carried.
    const values = labelValues(after).join('\n');
    const key = stack.sim.keys[0]?.apiKey ?? 'no-key';
    for (const secret of [DEFAULT_TEAM_ID, SEEDED_USERS.admin, SEEDED_USERS.member, SEEDED_CHANNELS.general])
      expect(values).not.toContain(secret);
    expect(values).not.toContain(uuid);
    expect(values).not.toContain(key);
    expect(values).not.toMatch(/\b[TUCW][A-Z0-9]{6,}\b/);
  });

  it('reads the depth of each queue from the store on each scrape', async () => {
    const { repos } = stack;
    const depth = async (queue: string) =>
      sampleSum((await scrape(url())).families, 'vigil_queue_depth', { queue });
    expect(await depth('digest_runs')).toBe(0);
    expect(await depth('exports')).toBe(0);
    const due = { localDate: '2026-11-26', scheduledAt: 0, late: false };
    expect((await repos.digestOutbox.claim(stack.workspaceId, 'sub-1', due, 'owner', 60_000)).kind).toBe(
      'claimed',
    );
    const exports = repos.runningExports(z.unknown());
    await exports.set(stack.workspaceId, 'U0001', { started: true });
    expect(await depth('digest_runs')).toBe(1);
    expect(await depth('exports')).toBe(1);
    await repos.digestOutbox.delete(stack.workspaceId, 'sub-1');
    await exports.delete(stack.workspaceId, 'U0001');
    expect(await depth('digest_runs')).toBe(0);
  });

  it('counts retries and 429s of the API, and refused Slack requests', async () => {
    const before = (await scrape(url())).families;
    stack.sim.faults.add({
      path: /\/tokens\/test$/,
      response: { status: 503, body: { detail: 'maintenance' } },
    });
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    stack.sim.faults.add({
      path: /\/tokens\/test$/,
      response: { status: 429, headers: { 'retry-after': '0' }, body: { detail: 'slow down' } },
    });
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    const refused = await fetch(`${stack.vigil.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'command=%2Fvigil&text=help',
    });
    expect(refused.status).toBe(401);
    const after = (await scrape(url())).families;
    const moved = (name: string, labels: Record<string, string>) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('vigil_api_requests_total', { route: '/tokens/test', status: '503' })).toBe(1);
    expect(moved('vigil_api_retries_total', { route: '/tokens/test', status: '503' })).toBe(1);
    expect(moved('vigil_api_requests_total', { route: '/tokens/test', status: '429' })).toBe(1);
    expect(moved('vigil_api_rate_limited_total', { route: '/tokens/test' })).toBe(1);
    expect(moved('vigil_api_retries_total', { route: '/tokens/test', status: '429' })).toBe(1);
    expect(moved('vigil_slack_requests_total', { outcome: 'refused' })).toBe(1);
  });
});

describe('/metrics on a port of its own (VIGIL_METRICS_PORT)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { VIGIL_METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is served on loopback there, and not on PORT', async () => {
    const port = stack.vigil.metricsPort;
    expect(port).toBeGreaterThan(0);
    await command(stack, 'status', { userId: SEEDED_USERS.admin });
    const { status, families } = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(status).toBe(200);
    expect(sampleSum(families, 'vigil_slack_requests_total', { kind: 'command' })).toBeGreaterThan(0);
    expect((await fetch(`${stack.vigil.url}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/slack/events`)).status).toBe(404);
  });
});
