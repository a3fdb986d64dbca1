/**
 * One subscription's digest posted on demand (the "Post a digest now" workflow step), through the scheduler's
 * "run now" and so through the same outbox: never posted twice, and today's scheduled one then skips. The
 * scheduler starts with background work, after the Slack listeners are built: it is attached then.
 */
import { VigilError } from '../../kernel/errors.js';
import type { Repositories } from '../../store/index.js';
import type { DigestScheduler } from './scheduler.js';

export interface PostedDigest {
  channelId: string;
  /** The digest message: posted now, or earlier today. */
  ts: string;
}

export class DigestOnDemand {
  private scheduler: Pick<DigestScheduler, 'runNow'> | undefined;

  constructor(private readonly deps: { repos: Pick<Repositories, 'digestOutbox'> }) {}

  attach(scheduler: Pick<DigestScheduler, 'runNow'>): void {
    this.scheduler = scheduler;
  }

  /** Posts today's digest of `subscriptionId` unless already posted, and says where it is. */
  async post(workspaceId: string, subscriptionId: string): Promise<PostedDigest> {
    if (this.scheduler === undefined)
      throw new VigilError(
        'Digests are not running in this Vigil instance yet.',
        'Try again in a minute; if it lasts, tell your Vigil administrator.',
      );
    const [report] = await this.scheduler.runNow(
      (sub) => sub.id === subscriptionId && sub.teamId === workspaceId,
    );
    const shown = subscriptionId.replaceAll('`', "'").slice(0, 40);
    if (report === undefined)
      throw new VigilError(
        `There is no digest subscription \`${shown}\` in this workspace.`,
        'Copy its id from `/vigil digest list`.',
      );
    const { outcome } = report;
    if (outcome === 'posted' || outcome === 'done' || outcome === 'already-posted') {
      const last = (await this.deps.repos.digestOutbox.get(workspaceId, subscriptionId))?.last;
      if (last?.ts !== undefined) return { channelId: report.subscription.channelId, ts: last.ts };
    }
    throw new VigilError(NOT_POSTED[outcome] ?? 'The digest was not posted.', hintOf(outcome, report.reason));
  }
}

const NOT_POSTED: Partial<Record<string, string>> = {
  posted: 'The digest was posted but Vigil could not find its message.',
  done: 'Today’s digest was posted, but Vigil could not find its message.',
  'already-posted': 'Today’s digest was posted, but Vigil could not find its message.',
  skipped: 'The digest had no events to post today, and the subscription skips empty digests.',
  busy: 'This digest is being posted right now.',
  paused: 'This digest subscription is paused.',
  retry: 'Posting the digest failed; Vigil will try again on its own.',
  failed: 'Posting the digest failed.',
};

function hintOf(outcome: string, reason: string | undefined): string {
  if (outcome === 'paused')
    return `${reason ? `${reason} ` : ''}Resume it with \`/vigil digest resume …\`.`.trim();
  if (outcome === 'skipped') return 'Nothing to link to: let the workflow go on without the link.';
  return reason ?? 'Run the workflow again in a few minutes.';
}
