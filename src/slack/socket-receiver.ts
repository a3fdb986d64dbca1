/**
 * Socket Mode with a refused request's answer in its ack. Bolt acks a request refused in `authorize` bare: a
 * submitted modal then just closes, without a word. Like the HTTP receiver, this one lets the workspace gate
 * choose that ack's body (the modal's refusal view, a command's reply) before Bolt sends it.
 */
import type { App, Receiver, ReceiverEvent, SocketModeReceiver } from '@slack/bolt';
import type { Metrics } from '../observability/metrics.js';
import { requestKindOf } from './request-kind.js';
import type { AckAnswers } from './served-workspaces.js';

export class AnsweringSocketModeReceiver implements Receiver, AckAnswers {
  /** Answers chosen before Bolt's own bare ack, by request body. */
  private readonly answers = new WeakMap<object, unknown>();

  constructor(
    private readonly inner: SocketModeReceiver,
    /** Counts requests by kind and outcome, and times their acks. */
    private readonly metrics?: Pick<Metrics, 'slackRequest'>,
  ) {}

  init(app: App): void {
    // The inner receiver only hands events on: it gets an app whose events' acks consult the answers first.
    const relay = {
      processEvent: async (event: ReceiverEvent) => {
        const watch = this.metrics?.slackRequest(requestKindOf(event.body));
        let acked = false;
        try {
          await app.processEvent({
            ...event,
            ack: async (response) => {
              await event.ack(response ?? this.answers.get(event.body));
              acked = true;
              watch?.acked();
            },
          });
        } catch (err) {
          if (!acked) watch?.failed();
          throw err;
        }
      },
    };
    this.inner.init(relay as App);
  }

  answerWith(body: object, response: unknown): void {
    this.answers.set(body, response);
  }

  start(): Promise<unknown> {
    return this.inner.start();
  }

  stop(): Promise<unknown> {
    return this.inner.stop();
  }
}
