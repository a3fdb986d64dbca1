/** Requests that come over Socket Mode are counted and their acks timed like those over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_APP_TOKEN, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { slashCommandBody } from '../harness/index.js';
import { histogramCount, sampleSum, scrape } from '../support/prometheus.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    env: { SLACK_APP_TOKEN: DEFAULT_APP_TOKEN, SLACK_SIGNING_SECRET: '', VIGIL_METRICS_PORT: '0' },
  });
});
afterAll(async () => {
  await stack?.close();
});

describe('metrics over Socket Mode', () => {
  it('count a command acked through the socket, with its ack time', async () => {
    const payload = Object.fromEntries(
      new URLSearchParams(
        slashCommandBody({
          text: 'help',
          userId: SEEDED_USERS.member,
          responseUrl: stack.slack.responseUrl(),
        }),
      ),
    );
    const ack = await stack.slack.socket.send({ type: 'slash_commands', payload });
    expect(ack.payload?.response_type).toBe('ephemeral');
    const { text, families } = await scrape(`http://127.0.0.1:${stack.vigil.metricsPort}/metrics`);
    expect(sampleSum(families, 'vigil_slack_requests_total', { kind: 'command', outcome: 'acked' })).toBe(1);
    expect(histogramCount(text, 'vigil_slack_ack_seconds', { kind: 'command' })).toBe(1);
  });
});
