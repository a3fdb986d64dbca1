/**
 * The metrics' parts beside the stack: the variables, store errors counted by a real store (an unreadable
 * SQLite record, a Redis server gone), and the alert publisher's delays, each read back from the scrape text.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config.js';
import type { EventsContextOf } from '../../src/domain/events/context.js';
import type { AlertPublisher } from '../../src/features/alerts/ports.js';
import { silentLogger } from '../../src/kernel/logger.js';
import { measuredAlertPublisher } from '../../src/observability/alert-publisher.js';
import { PrometheusMetrics } from '../../src/observability/prometheus.js';
import { openStore } from '../../src/store/index.js';
import { sqlite } from '../store/support/backends.js';
import { startRedisServer } from '../store/support/redis-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { histogramCount, sampleSum } from '../support/prometheus.js';

const BASE = {
  SLACK_BOT_TOKEN: 'xoxb-1',
  SLACK_SIGNING_SECRET: 's',
  VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('the metrics variables', () => {
  it('leave metrics off by default', () => {
    expect(loadConfig(BASE).metrics).toEqual({ port: undefined, host: '127.0.0.1' });
  });

  it('serve them only on a port of their own, on loopback unless told otherwise, never on PORT', () => {
    for (const on of ['1', 'true']) {
      expect(() => loadConfig({ ...BASE, VIGIL_METRICS: on })).toThrow(
        /VIGIL_METRICS: \/metrics is served only on VIGIL_METRICS_PORT .*never on PORT: set VIGIL_METRICS_PORT/,
      );
    }
    expect(loadConfig({ ...BASE, VIGIL_METRICS: '0' }).metrics.port).toBeUndefined();
    expect(loadConfig({ ...BASE, VIGIL_METRICS: '1', VIGIL_METRICS_PORT: '9464' }).metrics.port).toBe(9464);
    expect(loadConfig({ ...BASE, VIGIL_METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    expect(
      loadConfig({ ...BASE, VIGIL_METRICS_PORT: '9464', VIGIL_METRICS_HOST: '0.0.0.0' }).metrics.host,
    ).toBe('0.0.0.0');
  });

  it('refuse bad values with one line each', () => {
    try {
      loadConfig({ ...BASE, VIGIL_METRICS: 'yes', VIGIL_METRICS_PORT: 'metrics' });
      expect.unreachable('loadConfig accepted bad values');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).lines).toEqual([
        'VIGIL_METRICS: must be 1 or 0',
        'VIGIL_METRICS_PORT: must be a port number (0-65535)',
      ]);
    }
  });
});

describe('store errors', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-metrics-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('count an unreadable record', async () => {
    const metrics = new PrometheusMetrics(new ManualClock());
    const store = await openStore('sqlite://vigil.sqlite', {
      logger: silentLogger,
      cwd: dir,
      observer: metrics,
    });
    try {
      await store.namespace('alpha').set('k', 1);
      await sqlite(join(dir, 'vigil.sqlite'), 'UPDATE keyv SET value = ? WHERE key = ?', [
        'not json',
        'vigil:alpha:k',
      ]);
      await expect(store.namespace('alpha').get('k')).rejects.toThrow();
      const families = parsePrometheusTextFormat(await metrics.render());
      expect(sampleSum(families, 'vigil_store_errors_total', { kind: 'unreadable' })).toBe(1);
      expect(sampleSum(families, 'vigil_store_errors_total', { kind: 'unavailable' })).toBe(0);
    } finally {
      await store.close();
      metrics.close();
    }
  });

  it('count each operation failed while the backend is gone', async () => {
    const server = await startRedisServer();
    const metrics = new PrometheusMetrics(new ManualClock());
    const store = await openStore(server.url, { logger: silentLogger, cwd: dir, observer: metrics });
    try {
      await store.namespace('alpha').set('k', 1);
      await server.stop();
      await expect(store.namespace('alpha').get('k')).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
      const families = parsePrometheusTextFormat(await metrics.render());
      expect(sampleSum(families, 'vigil_store_errors_total', { kind: 'unavailable' })).toBe(2);
    } finally {
      await store.close().catch(() => {});
      await server.stop().catch(() => {});
      metrics.close();
    }
  });
});

describe('alert delays', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12, 0, 0));
  const posted: string[] = [];
  const publisher: AlertPublisher = {
    post: async (input) => {
      posted.push(input.runId);
      return { ts: '1.000001' };
    },
    refresh: async () => {},
    reply: async () => {},
    replyUpstream: async () => {},
  };
  const event = (uid: string, matchedAt?: string) => ({
    event: {
      metadata: {
        uid,
        type: 'leak',
        severity: 'high',
        estimated_created_at: '2020-01-01T00:00:00Z',
        ...(matchedAt ? { matched_at: matchedAt } : {}),
      },
    },
    generation: 0,
  });

  it("measure a post from each event's match (or its queueing) and a reply from its change", async () => {
    const metrics = new PrometheusMetrics(clock);
    const measured = measuredAlertPublisher(publisher, metrics, clock);
    const ctx = {
      events: [event('a/b/1', '2026-11-26T11:59:30Z'), event('a/b/2')],
    } as unknown as EventsContextOf<'alert'>;
    await measured.post({
      workspaceId: 'W',
      channelId: 'C',
      runId: 'run-1',
      ctx,
      ctxId: 'x',
      queuedAt: clock.now() - 5_000,
    });
    await measured.reply(
      { workspaceId: 'W', channelId: 'C', ts: '1.000001' },
      { workspaceId: 'W', uid: 'a/b/1', action: 'ignore', by: 'U', at: clock.now() - 2_000, generation: 1 },
    );
    expect(posted).toEqual(['run-1']);
    const text = await metrics.render();
    expect(histogramCount(text, 'vigil_alert_delay_seconds')).toBe(2);
    expect(text).toContain('vigil_alert_delay_seconds_sum 35');
    expect(histogramCount(text, 'vigil_alert_follow_delay_seconds')).toBe(1);
    expect(text).toContain('vigil_alert_follow_delay_seconds_sum 2');
    metrics.close();
  });
});
