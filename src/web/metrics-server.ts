/**
 * `/metrics` on a port of its own (VIGIL_METRICS_PORT), apart from Slack's traffic: loopback by default
 * (VIGIL_METRICS_HOST), so only what runs beside Vigil scrapes it unless the operator opens it.
 */
import { createServer, type Server } from 'node:http';
import type { Logger } from '../kernel/logger.js';
import { type MetricsRoute, sendMetrics } from './server.js';

export function createMetricsServer(metrics: MetricsRoute, logger: Logger): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    sendMetrics(res, metrics).catch((err: unknown) => {
      logger.error('metrics scrape failed', { err });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
    });
  });
}
