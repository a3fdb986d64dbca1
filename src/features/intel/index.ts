/**
 * `/vigil intel <question> [since:] [keywords:] [exclude:]`: asks Threat Flow, answers "requested" at once,
 * and starts a thread in the requester's DM with Vigil that the report will be posted in (the background
 * follower posts it; see publisher.ts).
 */

import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { openDm } from '../../slack/file-upload.js';
import { startOf } from '../../slack/grammar/time.js';
import { renderIntelRequested, renderIntelThreadStart } from './blocks.js';
import type { IntelDeps } from './deps.js';
import { intelSubcommands } from './grammar.js';

const intel: CommandHandler<'intel', IntelDeps> = {
  progress: () => 'Asking Threat Flow…',
  async run(ctx) {
    const { question, since, keywords, exclude } = ctx.command;
    const record = await ctx.deps.intel.ask({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      question,
      since: since === undefined ? undefined : startOf(since, new Date(ctx.deps.clock.now())),
      keywords,
      exclude,
    });
    // The thread the report will follow in; without it, the report goes to the DM on its own.
    let delivery: 'thread' | 'dm' = 'dm';
    try {
      const channel = await openDm(ctx.client, ctx.userId);
      const start = renderIntelThreadStart(question, record.requestUuid);
      const posted = await ctx.client.chat.postMessage({
        channel,
        text: start.text,
        blocks: start.blocks,
        unfurl_links: false,
        unfurl_media: false,
      });
      await ctx.deps.intel.setDestination(ctx.workspaceId, record.requestUuid, {
        channelId: channel,
        threadTs: posted.ts,
      });
      if (posted.ts) delivery = 'thread';
    } catch (err) {
      ctx.deps.logger.warn('could not start the thread of a report request', { err });
    }
    await ctx.respond(ephemeral(renderIntelRequested(record.requestUuid, delivery), true));
  },
};

export const intelFeature: Feature<IntelDeps> = { subcommands: intelSubcommands, commands: { intel } };
