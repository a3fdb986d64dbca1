/**
 * Asking the person: each posted alert of a subscription with `ask-person:on` offers its leaked credentials
 * (`offer`, idempotent: an ask per credential and cooldown); every tick sends the DMs the hourly window
 * allows (dm.ts), escalates the asks left unanswered and posts what the alert threads are still owed
 * (thread.ts); a click of the member records their answer and replies in the alert's thread. Everything is
 * in the store, so a restart, a crash or another instance takes it up where it stood.
 */

import type { Event } from '../../api/index.js';
import type { Ticker } from '../../domain/subscriptions/ticker.js';
import { isStoreOutage } from '../../store/index.js';
import { randomId } from '../../store/repos/ids.js';
import { answeredMessage, type Message } from './blocks.js';
import { type AlertRows, type AskEngineDeps, auditOf } from './deps.js';
import { type SendOutcome, sendDm, waitsForDm } from './dm.js';
import {
  type AnswerKind,
  type Ask,
  credentialKey,
  dateOf,
  emailsOf,
  isAskable,
  isOpen,
  maskEmail,
  owedPosts,
  sourceOf,
} from './model.js';
import { showRow } from './rows.js';
import { escalateIfDue, settlePosts } from './thread.js';

/** A posted alert, as the alert delivery tells of it (features/alerts/deliver.ts `DeliveredAlert`). */
export interface PostedAlert {
  workspaceId: string;
  channelId: string;
  ts: string;
  items: {
    event: Event;
    subscriptions: {
      id: string;
      askPerson?: boolean | undefined;
      timeZone: string;
      mention?: { users: string[]; groups: string[] } | undefined;
    }[];
  }[];
}

export interface AskTickReport {
  dms: Record<SendOutcome, number>;
  escalated: number;
  replies: number;
}

export type AnswerResult = { message: Message } | { refusal: string };

export class AskPersonService {
  private timer: { cancel(): void } | undefined;
  private running: Promise<AskTickReport> | undefined;

  constructor(private readonly deps: AskEngineDeps) {}

  /** Queues an ask for each leaked company credential of a posted alert that wants it; idempotent. */
  async offer(alert: PostedAlert): Promise<void> {
    for (const item of alert.items) {
      const sub = item.subscriptions.find((s) => s.askPerson === true);
      if (sub === undefined || !isAskable(item.event)) continue;
      const [email] = emailsOf(item.event);
      if (email === undefined) continue;
      const source = sourceOf(item.event);
      const id = credentialKey(email, source);
      const now = this.deps.clock.now();
      const fresh: Ask = {
        id,
        runId: randomId(12),
        email,
        masked: maskEmail(email),
        source,
        date: dateOf(item.event),
        eventUid: item.event.metadata.uid,
        alert: {
          channelId: alert.channelId,
          ts: alert.ts,
          subscriptionId: sub.id,
          timeZone: sub.timeZone,
          users: sub.mention?.users ?? [],
          groups: sub.mention?.groups ?? [],
        },
        createdAt: now,
        state: 'queued',
        answers: [],
      };
      const made = await this.deps.records.change(alert.workspaceId, id, (cur) =>
        cur === undefined || this.renewable(cur, now) ? fresh : undefined,
      );
      if (made.changed) await this.deps.audit.append(auditOf(fresh, alert.workspaceId, 'queue', 'queued'));
    }
  }

  /** Asked long enough ago (the cooldown), and nothing left to do about it: the credential may be asked again. */
  private renewable(ask: Ask, now: number): boolean {
    if (ask.createdAt + this.deps.settings.cooldownMs > now) return false;
    return ask.state === 'skipped' || (ask.state === 'asked' && owedPosts(ask).length === 0);
  }

  /** The alerts' rows, once the alert follower exists (app/background.ts). */
  attach(rows: AlertRows): void {
    this.deps.rows = rows;
  }

  start(ticker: Ticker, everyMs: number): void {
    if (this.timer !== undefined) return;
    this.timer = ticker.every(everyMs, () =>
      this.tick().catch((err: unknown) =>
        // The store logs its own outage once; the next tick tries again.
        isStoreOutage(err)
          ? this.deps.logger.debug('ask-person tick skipped: store unavailable')
          : this.deps.logger.warn('ask-person tick failed', { err }),
      ),
    );
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One pass over every workspace's asks; one at a time in this process. */
  tick(): Promise<AskTickReport> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<AskTickReport> {
    const report: AskTickReport = {
      dms: { sent: 0, skipped: 0, full: 0, busy: 0, failed: 0 },
      escalated: 0,
      replies: 0,
    };
    for (const workspaceId of await this.deps.records.workspaces()) {
      try {
        await this.workspace(workspaceId, report);
      } catch (err) {
        if (isStoreOutage(err)) throw err;
        this.deps.logger.warn('ask-person work for a workspace failed', { workspaceId, err });
      }
    }
    return report;
  }

  /** The workspace's open asks (its index: closed ones are not read), each moved on as far as it can go. */
  private async workspace(workspaceId: string, report: AskTickReport): Promise<void> {
    const { deps } = this;
    const now = deps.clock.now();
    const ids = await deps.records.openIds(workspaceId);
    const read = await Promise.all(ids.map((id) => deps.records.get(workspaceId, id)));
    const asks = read.filter((a): a is Ask => a !== undefined && isOpen(a));
    // Closed (or expired) since they were indexed: out of the index, so the next tick does not read them.
    const closed = ids.filter((id) => !asks.some((a) => a.id === id));
    if (closed.length > 0 || ids.length === 0) await deps.records.prune(workspaceId, closed);
    // Oldest first: the queue is drained in the order the alerts came.
    const waiting = asks.filter((a) => waitsForDm(a, now)).sort((a, b) => a.createdAt - b.createdAt);
    if (waiting.length > 0 && (await deps.records.room(workspaceId, deps.settings.perHour)) > 0) {
      for (const ask of waiting) {
        const outcome = await sendDm(deps, workspaceId, ask.id);
        report.dms[outcome]++;
        if (outcome === 'full') break;
      }
    } else report.dms.full += waiting.length;
    for (const ask of asks) {
      if (await escalateIfDue(deps, workspaceId, ask)) report.escalated++;
      else if (owedPosts(ask).length > 0) report.replies += await settlePosts(deps, workspaceId, ask);
      // Read again: what was just sent, answered or escalated shows on the alert's row.
      const now = await deps.records.get(workspaceId, ask.id);
      if (now !== undefined) await showRow(deps, workspaceId, now);
    }
  }

  /** The member's answer: recorded (once per kind), audited, and replied in the alert's thread. */
  async answer(input: {
    workspaceId: string;
    userId: string;
    id: string;
    kind: AnswerKind;
  }): Promise<AnswerResult> {
    const { deps } = this;
    const now = deps.clock.now();
    const before = await deps.records.get(input.workspaceId, input.id);
    if (before === undefined) return { refusal: 'This question has expired; nothing more is needed.' };
    // A click can come before the DM is recorded sent (Slack shows it as soon as it takes it): the click
    // itself says the DM is there.
    const shown = before.state === 'asked' || (before.state === 'sending' && before.dmChannel !== undefined);
    if (before.userId !== input.userId || !shown) return { refusal: 'This question was for someone else.' };
    const saved = await deps.records.change(input.workspaceId, input.id, (cur) => {
      if (cur === undefined || cur.answers.some((a) => a.kind === input.kind)) return undefined;
      const post = { runId: `${cur.runId}.a${cur.answers.length}`, state: 'pending' as const };
      return { ...cur, answers: [...cur.answers, { kind: input.kind, at: now, post }] };
    });
    const ask = saved.ask ?? before;
    if (saved.changed) {
      await deps.audit.append(auditOf(ask, input.workspaceId, 'answer', input.kind, input.userId));
      await settlePosts(deps, input.workspaceId, ask).catch((err: unknown) =>
        deps.logger.warn('ask-person answer reply failed; the next tick posts it', { err }),
      );
      await showRow(deps, input.workspaceId, ask);
    }
    return { message: answeredMessage(ask, input.kind) };
  }
}
