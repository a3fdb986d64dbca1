/**
 * The buttons of an events message. Every click is acked first; the work runs in the tracker and any error
 * becomes an ephemeral message (reportError). Who clicked comes from the verified payload; the button value
 * only names a stored context, which must belong to the clicker's workspace.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { App, BlockAction, ButtonAction, OverflowAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { EventActionType } from '../../../api/index.js';
import { ExpiredError, VigilError } from '../../../errors.js';
import type { EventsContext } from '../../../services/events-context.js';
import { parseRef, searchInputOf } from '../../../services/events-context.js';
import { ACTION_IDS, parseActionId, parseOverflowValue } from '../../blocks/events.js';
import { slackDate, userMention } from '../../blocks/text.js';
import { ephemeral, type Requester, type SlackDeps } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';
import type { Acted } from './event-state.js';
import { applyAction, intendedAction, isApplicable } from './event-state.js';
import { explainMessages, sendExplain } from './explain.js';
import type { MessageTarget } from './page-message.js';
import { renderPage, showContext, withEventChanged } from './page-message.js';
import { searchToContext } from './run-search.js';
import { openSecretModal } from './secret-modal.js';
import { servicesOf } from './services.js';

/** Re-opens the modal of a secret search, whose query Vigil did not keep. */
export const EVENTS_SECRET_AGAIN = 'events_secret_again';
/** How long a clicker who lost the race waits for the winner's result before answering. */
const WAIT_FOR_WINNER_MS = 4000;
const POLL_MS = 100;

interface Click {
  deps: SlackDeps;
  who: Requester;
  body: BlockAction<ButtonAction | OverflowAction>;
  /** The button clicked, or the button an overflow option stands for. */
  action: { action_id: string; value?: string | undefined };
  respond: RespondFn;
  client: WebClient;
}

const ACTED_WORDS: Record<EventActionType, string> = {
  ignore: 'ignored',
  remediate: 'remediated',
  unignore: 'unignored',
  unremediate: 'unremediated',
};
const ACTING_WORDS: Record<EventActionType, string> = {
  ignore: 'ignoring',
  remediate: 'remediating',
  unignore: 'unignoring',
  unremediate: 'unremediating',
};

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at a search Vigil knows.',
    'Run the search again with `/vigil events <identifier-id>`.',
  );
}

/** Where the clicked message lives: a channel message is updated in place, an ephemeral one replaced. */
function targetOf(click: Click, ctx: EventsContext): MessageTarget {
  const container = click.body.container as {
    is_ephemeral?: boolean;
    channel_id?: string;
    message_ts?: string;
  };
  if (container.is_ephemeral === true) return { kind: 'ephemeral', respond: click.respond };
  const channel = container.channel_id ?? ctx.message?.channel;
  const ts = container.message_ts ?? ctx.message?.ts;
  if (!channel || !ts) return { kind: 'ephemeral', respond: click.respond };
  return { kind: 'channel', channel, ts, client: click.client };
}

async function load(click: Click): Promise<{ ctx: EventsContext; ctxId: string; index: number | undefined }> {
  const ref = parseRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await servicesOf(click.deps).contexts.load(ref.ctxId, click.who.workspaceId);
  return { ctx, ctxId: ref.ctxId, index: ref.index };
}

function tell(click: Click, text: string): Promise<unknown> {
  return click.respond(ephemeral({ text }, false));
}

function actedText(acted: Acted): string {
  const who = userMention(acted.by) ?? 'A teammate';
  return `${who} ${ACTED_WORDS[acted.action]} this event ${slackDate(acted.at)}`;
}

// ── Ignore, Remediate, Unignore, Unremediate, Undo ───────────────────────────────────────────────────

async function actOnEvent(click: Click, base: string): Promise<void> {
  const { deps, who } = click;
  const { states } = servicesOf(deps);
  const { ctx, index } = await load(click);
  const shown = index === undefined ? undefined : ctx.events[index];
  if (index === undefined || shown === undefined) throw gone();
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const action = intendedAction(base, shown);
  if (action === undefined)
    throw new VigilError('There is nothing to undo on this event.', 'Refresh the search.');
  const uid = shown.event.metadata.uid;
  const from = shown.generation;

  const current = await states.get(who.workspaceId, uid);
  if (current.generation !== from) {
    await tellActedFirst(click, current.last);
    await refreshAfterOthers(click, ctx, index, current.generation, current.last);
    return;
  }
  if (!(await states.claim(who.workspaceId, uid, from))) {
    await answerLoser(click, ctx, index, uid, from);
    return;
  }
  const at = deps.clock.now();
  const acted: Acted = { action, by: who.userId, at };
  try {
    await states.markActing(who.workspaceId, uid, from, acted);
    await deps.api.call(who.workspaceId, ({ session }) => session.eventAction({ action, uids: [uid] }));
  } catch (err) {
    await states.release(who.workspaceId, uid, from);
    throw err;
  }
  await states.commit(who.workspaceId, uid, from, acted);
  await deps.repos.audit.append({
    teamId: who.workspaceId,
    userId: who.userId,
    action: `event.${action}`,
    target: uid,
    detail: base === ACTION_IDS.undo ? 'undo from Slack' : 'from Slack',
  });
  const undone = base === ACTION_IDS.undo;
  const next = withEventChanged(ctx, index, {
    event: applyAction(shown.event, action, new Date(at).toISOString()),
    generation: from + 1,
    ...(undone ? {} : { acted }),
  });
  await showContext(deps, servicesOf(deps).contexts, next, targetOf(click, ctx));
}

async function tellActedFirst(click: Click, last: Acted | undefined): Promise<void> {
  await tell(
    click,
    last
      ? `${actedText(last)}, before your click, so Vigil did nothing more.`
      : 'Someone acted on this event before your click, so Vigil did nothing more.',
  );
}

/** Another clicker holds the claim: wait a little for their result, then say who acted. */
async function answerLoser(click: Click, ctx: EventsContext, index: number, uid: string, from: number) {
  const { states } = servicesOf(click.deps);
  const deadline = Date.now() + WAIT_FOR_WINNER_MS;
  while (Date.now() < deadline) {
    const now = await states.get(click.who.workspaceId, uid);
    if (now.generation !== from) {
      await tellActedFirst(click, now.last);
      await refreshAfterOthers(click, ctx, index, now.generation, now.last);
      return;
    }
    await sleep(POLL_MS);
  }
  const acting = await states.actingNow(click.who.workspaceId, uid, from);
  await tell(
    click,
    acting
      ? `${userMention(acting.by) ?? 'A teammate'} is already ${ACTING_WORDS[acting.action]} this event (since ${slackDate(acting.at)}).`
      : 'Someone is already acting on this event. Look again in a moment.',
  );
}

/** A private copy of the results that is now stale is brought up to date (the channel copy the winner updates). */
async function refreshAfterOthers(
  click: Click,
  ctx: EventsContext,
  index: number,
  generation: number,
  last: Acted | undefined,
): Promise<void> {
  const target = targetOf(click, ctx);
  const shown = ctx.events[index];
  if (target.kind !== 'ephemeral' || shown === undefined || last === undefined) return;
  const next = withEventChanged(ctx, index, {
    event: applyAction(shown.event, last.action, new Date(last.at).toISOString()),
    generation,
    acted: last,
  });
  // Best effort: the answer above already told the clicker what happened.
  await showContext(click.deps, servicesOf(click.deps).contexts, next, target).catch((err: unknown) =>
    click.deps.logger.warn('could not refresh a stale events message', { err }),
  );
}

// ── Ignore all on this page ─────────────────────────────────────────────────────────────────────────

async function ignorePage(click: Click): Promise<void> {
  const { deps, who } = click;
  const { states, contexts } = servicesOf(deps);
  const { ctx } = await load(click);
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const claimed: number[] = [];
  let byOthers = 0;
  for (const [i, shown] of ctx.events.entries()) {
    if (shown.acted !== undefined || !isApplicable(shown.event, 'ignore')) continue;
    const uid = shown.event.metadata.uid;
    const current = await states.get(who.workspaceId, uid);
    if (
      current.generation !== shown.generation ||
      !(await states.claim(who.workspaceId, uid, shown.generation))
    ) {
      byOthers++;
      continue;
    }
    claimed.push(i);
  }
  if (claimed.length === 0) {
    await tell(
      click,
      byOthers > 0
        ? 'Teammates already acted on the open events of this page, so Vigil did nothing more.'
        : 'Every event on this page is already ignored or handled.',
    );
    return;
  }
  const at = deps.clock.now();
  const acted: Acted = { action: 'ignore', by: who.userId, at };
  const picked = claimed.flatMap((i) => {
    const shown = ctx.events[i];
    return shown ? [{ i, shown, uid: shown.event.metadata.uid }] : [];
  });
  try {
    for (const p of picked) await states.markActing(who.workspaceId, p.uid, p.shown.generation, acted);
    // The client sends the targets in batches of at most 10.
    await deps.api.call(who.workspaceId, ({ session }) =>
      session.eventAction({ action: 'ignore', uids: picked.map((p) => p.uid) }),
    );
  } catch (err) {
    await Promise.all(picked.map((p) => states.release(who.workspaceId, p.uid, p.shown.generation)));
    throw err;
  }
  let next = ctx;
  const iso = new Date(at).toISOString();
  for (const p of picked) {
    await states.commit(who.workspaceId, p.uid, p.shown.generation, acted);
    await deps.repos.audit.append({
      teamId: who.workspaceId,
      userId: who.userId,
      action: 'event.ignore',
      target: p.uid,
      detail: 'ignore all on page, from Slack',
    });
    next = withEventChanged(next, p.i, {
      event: applyAction(p.shown.event, 'ignore', iso),
      generation: p.shown.generation + 1,
      acted,
    });
  }
  await showContext(deps, contexts, next, targetOf(click, ctx));
  if (byOthers > 0) {
    await tell(
      click,
      `Ignored ${picked.length} event${picked.length === 1 ? '' : 's'}; ${byOthers} had already been handled by teammates.`,
    );
  }
}

// ── Next page ───────────────────────────────────────────────────────────────────────────────────────

async function nextPage(click: Click): Promise<void> {
  const { deps, who } = click;
  const { ctx, ctxId } = await load(click);
  if (ctx.cursor === undefined) {
    await tell(click, 'This is the last page of these results.');
    return;
  }
  if (ctx.query.kind === 'withheld') {
    await click.respond(
      ephemeral(
        {
          text: 'Vigil does not keep the secret of a search, so it cannot fetch the next page.',
          blocks: [
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text: 'Vigil does not keep the secret of a search, so it cannot fetch the next page. Run the search again through the private form.',
              },
              accessory: {
                type: 'button',
                action_id: EVENTS_SECRET_AGAIN,
                text: { type: 'plain_text', text: 'Search again' },
                value: ctxId,
              },
            },
          ],
        },
        false,
      ),
    );
    return;
  }
  const next = await searchToContext(deps, {
    workspaceId: who.workspaceId,
    userId: ctx.userId,
    channelId: ctx.channelId,
    commandText: ctx.commandText,
    input: searchInputOf(ctx),
    from: ctx.cursor,
    pageNumber: ctx.pageNumber + 1,
    offset: (ctx.offset ?? 0) + ctx.events.length,
    ...(ctx.sort ? { sort: ctx.sort } : {}),
    ...(ctx.message ? { message: ctx.message } : {}),
  });
  await showContext(deps, servicesOf(deps).contexts, next, targetOf(click, ctx));
}

async function secretAgain(click: Click): Promise<void> {
  const { ctx } = await load(click);
  if (ctx.query.kind !== 'withheld') throw gone();
  await openSecretModal(click.client, click.body.trigger_id, {
    identifierId: ctx.identifierId,
    queryType: ctx.query.type,
    channelId: ctx.channelId,
  });
}

// ── Share in channel ────────────────────────────────────────────────────────────────────────────────

function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

async function share(click: Click): Promise<void> {
  const { deps, who } = click;
  const { contexts } = servicesOf(deps);
  const { ctx } = await load(click);
  const channel = who.channelId || ctx.channelId;
  if (ctx.message !== undefined) {
    await tell(click, 'These results are already in the channel.');
    return;
  }
  // Post with the buttons of a first context, then point them at one that records where the message is.
  const draftId = await contexts.save(ctx);
  const page = renderPage(ctx, draftId, deps.clock.now(), { inChannel: true });
  let posted: { ts?: string | undefined; channel?: string | undefined };
  try {
    posted = await click.client.chat.postMessage({
      channel,
      text: page.text,
      blocks: page.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      throw new VigilError(
        'Vigil is not a member of this channel, so it cannot share the results here.',
        'Invite it with `/invite @Vigil`, then click Share in channel again.',
        { cause: err },
      );
    }
    throw err;
  }
  if (posted.ts) {
    const shared = { ...ctx, message: { channel: posted.channel ?? channel, ts: posted.ts } };
    // The draft's buttons work too (clicks carry the message location): a failed update is not fatal.
    await showContext(deps, contexts, shared, {
      kind: 'channel',
      channel: shared.message.channel,
      ts: shared.message.ts,
      client: click.client,
    }).catch((err: unknown) => deps.logger.warn('could not record the shared message location', { err }));
  }
  await deps.repos.audit.append({
    teamId: who.workspaceId,
    userId: who.userId,
    action: 'events.share',
    target: String(ctx.identifierId),
    detail: `page ${ctx.pageNumber} in ${channel}`,
  });
  await click.respond({ delete_original: true });
}

// ── Explain ─────────────────────────────────────────────────────────────────────────────────────────

async function explain(click: Click): Promise<void> {
  const { ctx, index } = await load(click);
  const shown = index === undefined ? undefined : ctx.events[index];
  if (shown === undefined) throw gone();
  const messages = await explainMessages(click.deps, click.who.workspaceId, shown.event.metadata.uid);
  await sendExplain(click.respond, messages, false);
}

// ── Registration ────────────────────────────────────────────────────────────────────────────────────

type Handler = (click: Click, base: string) => Promise<void>;

function listen(
  app: App,
  deps: SlackDeps,
  constraint: { action_id: RegExp | string; block_id?: RegExp | string },
  handler: Handler,
): void {
  app.action<BlockAction<ButtonAction>>(constraint, async ({ ack, body, action, respond, client }) => {
    await ack();
    const who = requesterOfAction(body);
    const base = parseActionId(action.action_id).base;
    deps.tracker.run(
      () => handler({ deps, who, body, action, respond, client }, base),
      (err) =>
        void reportError(deps, err, respond, { action: base, team: who.workspaceId, user: who.userId }),
    );
  });
}

const OVERFLOW_HANDLERS: Readonly<Record<string, Handler>> = {
  [ACTION_IDS.ignore]: actOnEvent,
  [ACTION_IDS.remediate]: actOnEvent,
  [ACTION_IDS.unignore]: actOnEvent,
  [ACTION_IDS.unremediate]: actOnEvent,
  [ACTION_IDS.undo]: actOnEvent,
  [ACTION_IDS.explain]: explain,
};

/** An event's overflow menu: the chosen option names the button it stands for, handled like that button. */
function listenOverflow(app: App, deps: SlackDeps): void {
  const constraint = { action_id: /^event_more:\d{1,6}$/, block_id: /^event:\d{1,6}$/ };
  app.action<BlockAction<OverflowAction>>(constraint, async ({ ack, body, action, respond, client }) => {
    await ack();
    const who = requesterOfAction(body);
    const chosen = parseOverflowValue(action.selected_option?.value);
    const { base, index } = parseActionId(chosen?.actionId ?? '');
    const menuIndex = parseActionId(action.action_id).index;
    const handler = OVERFLOW_HANDLERS[base];
    deps.tracker.run(
      async () => {
        // The option must belong to the menu it was chosen from; anything else is not one of ours.
        if (chosen === undefined || handler === undefined || index !== menuIndex) throw gone();
        const clicked = { action_id: chosen.actionId, value: chosen.value };
        await handler({ deps, who, body, action: clicked, respond, client }, base);
      },
      (err) =>
        void reportError(deps, err, respond, { action: base, team: who.workspaceId, user: who.userId }),
    );
  });
}

export function registerEventActions(app: App, deps: SlackDeps): void {
  const eventBlock = /^event:\d{1,6}$/;
  listen(
    app,
    deps,
    { action_id: /^event_(?:ignore|remediate|unignore|unremediate|undo):\d{1,6}$/, block_id: eventBlock },
    actOnEvent,
  );
  listen(app, deps, { action_id: /^event_explain:\d{1,6}$/, block_id: eventBlock }, explain);
  listenOverflow(app, deps);
  // The page buttons sit in the `events:tail` block: other features may reuse the same action ids.
  listen(app, deps, { action_id: ACTION_IDS.nextPage, block_id: 'events:tail' }, nextPage);
  listen(app, deps, { action_id: ACTION_IDS.ignorePage, block_id: 'events:tail' }, ignorePage);
  listen(app, deps, { action_id: ACTION_IDS.share, block_id: 'events:tail' }, share);
  listen(app, deps, { action_id: EVENTS_SECRET_AGAIN }, secretAgain);
}
