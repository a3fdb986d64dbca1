/**
 * Says so when a containment request expires: on the background ticker (the alerts' beat), requests whose
 * VIGIL_CONTAIN_APPROVAL_TTL has passed on the injected clock are closed and their message in the channel is
 * replaced by the expired decision, so nobody is left looking at an Approve button that can no longer run.
 */
import type { WebClient } from '@slack/web-api';
import type { Ticker } from '../../domain/subscriptions/ticker.js';
import type { Logger } from '../../kernel/logger.js';
import { isStoreOutage } from '../../store/index.js';
import { renderDecision } from './blocks.js';
import type { ContainRequests } from './requests.js';

/** Requests are few and expire in an hour: a look a minute is soon enough and scans little. */
const SWEEP_EVERY_MS = 60_000;

export interface ContainExpiryDeps {
  requests: Pick<ContainRequests, 'expireDue'>;
  /** The workspace's bot client, to update the message the request was asked in. */
  clientFor(workspaceId: string): Promise<WebClient>;
  logger: Logger;
}

export class ContainExpiry {
  private timer: { cancel(): void } | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly deps: ContainExpiryDeps) {}

  start(ticker: Ticker): void {
    if (this.timer !== undefined) return;
    this.timer = ticker.every(SWEEP_EVERY_MS, () =>
      this.tick().catch((err: unknown) =>
        // The store logs its own outage once; the next sweep tries again.
        isStoreOutage(err)
          ? this.deps.logger.debug('containment expiry skipped: store unavailable')
          : this.deps.logger.warn('containment expiry failed', { err }),
      ),
    );
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One sweep; one at a time in this process. Resolves to the messages updated. */
  tick(): Promise<number> {
    this.running ??= this.sweep().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweep(): Promise<number> {
    let updated = 0;
    for (const { workspaceId, request } of await this.deps.requests.expireDue()) {
      if (request.channelId === undefined || request.messageTs === undefined) continue;
      try {
        const client = await this.deps.clientFor(workspaceId);
        const message = renderDecision(request, { remediable: true });
        await client.chat.update({ channel: request.channelId, ts: request.messageTs, ...message });
        updated += 1;
      } catch (err) {
        // The request is closed either way; a click on the old message is told it expired.
        this.deps.logger.warn('could not mark an expired containment request in Slack', {
          err,
          team: workspaceId,
        });
      }
    }
    return updated;
  }
}
