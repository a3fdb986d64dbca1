/**
 * One streamed answer in the DM, over Slack's streaming methods (https://docs.slack.dev/reference/methods/chat.startStream,
 * …/chat.appendStream, …/chat.stopStream): a plan whose tasks are updated as they run, then the result's blocks
 * at the bottom of the finished message. A stream Slack refuses or loses is not the person's problem: the answer
 * is then posted as a plain reply in the thread, so they always get it.
 */
import type { Block, KnownBlock } from '@slack/types';
import type { AnyChunk, WebClient } from '@slack/web-api';
import type { Logger } from '../../kernel/logger.js';
import { slackErrorCode } from '../../slack/error-code.js';
import { taskText } from './text.js';

export type TaskStatus = 'pending' | 'in_progress' | 'complete' | 'error';

export interface PlanTask {
  id: string;
  title: string;
}

/** The finished message's last part: blocks (with their fallback text), and markdown said before them. */
export interface StreamEnd {
  markdown?: string;
  text: string;
  blocks?: (KnownBlock | Block)[];
}

export class AnswerStream {
  private ts: string | undefined;
  private failed = false;
  private readonly titles = new Map<string, string>();

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly where: { channel: string; threadTs: string },
  ) {}

  /** Starts the stream with the plan and every task pending: the person sees at once what Vigil will do. */
  async start(plan: string, tasks: readonly PlanTask[], markdown?: string): Promise<void> {
    for (const t of tasks) this.titles.set(t.id, taskText(t.title));
    const chunks: AnyChunk[] = [
      ...(markdown ? [{ type: 'markdown_text' as const, text: markdown }] : []),
      { type: 'plan_update', title: taskText(plan) },
      ...tasks.map((t) => this.task(t.id, 'pending')),
    ];
    try {
      const res = await this.client.chat.startStream({
        channel: this.where.channel,
        thread_ts: this.where.threadTs,
        task_display_mode: 'plan',
        chunks,
      });
      this.ts = res.ts;
    } catch (err) {
      this.lost('start', err);
    }
  }

  private task(id: string, status: TaskStatus, details?: string): AnyChunk {
    return {
      type: 'task_update',
      id,
      title: this.titles.get(id) ?? id,
      status,
      ...(details ? { details: taskText(details) } : {}),
    };
  }

  /** A task's new state (and a word on it), shown as soon as Slack has it. */
  async update(id: string, status: TaskStatus, details?: string): Promise<void> {
    await this.append([this.task(id, status, details)]);
  }

  async say(markdown: string): Promise<void> {
    await this.append([{ type: 'markdown_text', text: markdown }]);
  }

  private async append(chunks: AnyChunk[]): Promise<void> {
    if (this.ts === undefined || this.failed) return;
    try {
      await this.client.chat.appendStream({ channel: this.where.channel, ts: this.ts, chunks });
    } catch (err) {
      this.lost('append', err);
    }
  }

  /** Finishes the message with the answer; when there is no stream to finish, posts the answer in the thread. */
  async stop(end: StreamEnd): Promise<void> {
    if (this.ts !== undefined && !this.failed) {
      try {
        await this.client.chat.stopStream({
          channel: this.where.channel,
          ts: this.ts,
          ...(end.markdown ? { chunks: [{ type: 'markdown_text', text: end.markdown }] } : {}),
          ...(end.blocks && end.blocks.length > 0 ? { blocks: end.blocks } : {}),
        });
        return;
      } catch (err) {
        this.lost('stop', err);
      }
    }
    await this.client.chat.postMessage({
      channel: this.where.channel,
      thread_ts: this.where.threadTs,
      text: end.text,
      ...(end.blocks && end.blocks.length > 0 ? { blocks: end.blocks } : {}),
    });
  }

  /** Slack's error code only: a stream's text may hold what the person typed, and stays out of the log. */
  private lost(step: string, err: unknown): void {
    this.failed = true;
    this.logger.warn('agent stream failed; answering in a plain reply', { step, error: slackErrorCode(err) });
  }
}
