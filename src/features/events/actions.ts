/**
 * The buttons of an events message: parse the click → the events service → the builders → the reply.
 * Who clicked comes from the verified payload; the button value only names a stored context, which must
 * belong to the clicker's workspace. Acting once, auditing and waiting for a winner live in the service.
 */
import type { App, ButtonAction } from '@slack/bolt';
import type { EventActionType } from '../../api/index.js';
import type { EventsContext } from '../../domain/events/context.js';
import { parseRef, searchInputOf, withEventChanged } from '../../domain/events/context.js';
import { showContext } from '../../domain/events/message.js';
import type { Acted } from '../../domain/events/model.js';
import { applyAction, eventTitle } from '../../domain/events/model.js';
import {
  ACTION_IDS,
  EVENTS_SECRET_AGAIN,
  parseActionId,
  parseOverflowValue,
  renderExplain,
  renderPage,
  renderSecretAgain,
} from '../../domain/events/page.js';
import { inTenant } from '../../domain/workspace-api.js';
import { ExpiredError, VigilError } from '../../kernel/errors.js';
import type { WaitKind } from '../../kernel/waiting-on.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { userMention } from '../../slack/kit/text.js';
import { type Click, onAction, onMenu } from '../../slack/listen.js';
import { clickTarget, type MessageTarget, shareInChannel } from '../../slack/respond.js';
import { waitingWords } from '../../slack/still-working.js';
import type { EventRowsDeps } from './deps.js';
import { intendedAction } from './intended.js';
import { openSecretModal, sendExplain } from './views.js';

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

function targetOf(click: Click<EventRowsDeps>, ctx: EventsContext): MessageTarget {
  return clickTarget(click.body.container, click.respond, click.client, ctx.message);
}

/** A click's context, read once however many steps of the click ask for it. */
const loadedFor = new WeakMap<Click<EventRowsDeps>, Promise<EventsContext>>();
function contextOf(click: Click<EventRowsDeps>, ctxId: string): Promise<EventsContext> {
  let loaded = loadedFor.get(click);
  if (loaded === undefined) {
    loaded = click.deps.events.contexts.load(ctxId, click.who.workspaceId);
    loadedFor.set(click, loaded);
  }
  return loaded;
}

async function load(
  click: Click<EventRowsDeps>,
): Promise<{ ctx: EventsContext; ctxId: string; index: number | undefined }> {
  const ref = parseRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await contextOf(click, ref.ctxId);
  return { ctx, ctxId: ref.ctxId, index: ref.index };
}

/**
 * Runs a click's work in the tenant of the message's events: a digest's or alert's keeps its
 * subscription's, a search's the one searched, whatever the workspace's tenant is by then.
 */
async function inItsTenant(
  click: Click<EventRowsDeps>,
  handler: (click: Click<EventRowsDeps>) => Promise<void>,
): Promise<void> {
  const ref = parseRef(click.action.value);
  // An unreadable or expired context is the handler's to say; here it only means no tenant of its own.
  const ctx = ref === undefined ? undefined : await contextOf(click, ref.ctxId).catch(() => undefined);
  return inTenant(ctx?.tenantId, () => handler(click));
}

function tell(click: Click<EventRowsDeps>, text: string): Promise<unknown> {
  return click.respond(ephemeral({ text }, false));
}

function actedText(acted: Acted): string {
  const who = userMention(acted.by) ?? 'A teammate';
  return `${who} ${ACTED_WORDS[acted.action]} this event ${slackDate(acted.at)}`;
}

// ── Ignore, Remediate, Unignore, Unremediate, Undo ───────────────────────────────────────────────────

async function actOnEvent(click: Click<EventRowsDeps>): Promise<void> {
  const { deps, who } = click;
  const base = parseActionId(click.action.action_id).base;
  const { ctx, index } = await load(click);
  const shown = index === undefined ? undefined : ctx.events[index];
  if (index === undefined || shown === undefined) throw gone();
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const action = intendedAction(base, shown);
  if (action === undefined)
    throw new VigilError('There is nothing to undo on this event.', 'Refresh the search.');
  const undone = base === ACTION_IDS.undo;
  const outcome = await deps.events.actOnEvent({
    workspaceId: who.workspaceId,
    uid: shown.event.metadata.uid,
    from: shown.generation,
    action,
    by: who.userId,
    detail: undone ? 'undo from Slack' : 'from Slack',
    title: eventTitle(shown.event),
  });
  if (outcome.kind === 'stale') {
    await tell(
      click,
      outcome.last
        ? `${actedText(outcome.last)}, before your click, so Vigil did nothing more.`
        : 'Someone acted on this event before your click, so Vigil did nothing more.',
    );
    await refreshAfterOthers(click, ctx, index, outcome.generation, outcome.last);
    return;
  }
  if (outcome.kind === 'busy') {
    const acting = outcome.acting;
    await tell(
      click,
      acting
        ? `${userMention(acting.by) ?? 'A teammate'} is already ${ACTING_WORDS[acting.action]} this event (since ${slackDate(acting.at)}).`
        : 'Someone is already acting on this event. Look again in a moment.',
    );
    return;
  }
  const { acted } = outcome;
  const next = withEventChanged(ctx, index, {
    event: applyAction(shown.event, action, new Date(acted.at).toISOString()),
    generation: outcome.generation,
    ...(undone ? {} : { acted }),
  });
  await showContext(deps, next, targetOf(click, ctx));
}

/** A private copy of the results that is now stale is brought up to date (the channel copy the winner updates). */
async function refreshAfterOthers(
  click: Click<EventRowsDeps>,
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
  await showContext(click.deps, next, target).catch((err: unknown) =>
    click.deps.logger.warn('could not refresh a stale events message', { err }),
  );
}

// ── Ignore all on this page ─────────────────────────────────────────────────────────────────────────

async function ignorePage(click: Click<EventRowsDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx } = await load(click);
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const outcome = await deps.events.ignorePage({
    workspaceId: who.workspaceId,
    events: ctx.events,
    by: who.userId,
  });
  if (outcome.acted.length === 0) {
    await tell(
      click,
      outcome.byOthers > 0
        ? 'Teammates already acted on the open events of this page, so Vigil did nothing more.'
        : 'Every event on this page is already ignored or handled.',
    );
    return;
  }
  const acted: Acted = { action: 'ignore', by: who.userId, at: outcome.at };
  const iso = new Date(outcome.at).toISOString();
  let next = ctx;
  for (const { index, generation } of outcome.acted) {
    const shown = next.events[index];
    if (shown === undefined) continue;
    next = withEventChanged(next, index, {
      event: applyAction(shown.event, 'ignore', iso),
      generation,
      acted,
    });
  }
  await showContext(deps, next, targetOf(click, ctx));
  if (outcome.byOthers > 0) {
    const n = outcome.acted.length;
    await tell(
      click,
      `Ignored ${n} event${n === 1 ? '' : 's'}; ${outcome.byOthers} had already been handled by teammates.`,
    );
  }
}

// ── Next page ───────────────────────────────────────────────────────────────────────────────────────

async function nextPage(click: Click<EventRowsDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx, ctxId } = await load(click);
  // A digest or an alert is one page: only results have a next one.
  if (ctx.kind !== 'search' || ctx.cursor === undefined) {
    await tell(click, 'This is the last page of these results.');
    return;
  }
  if (ctx.query.kind === 'withheld') {
    await click.respond(ephemeral(renderSecretAgain(ctxId), false));
    return;
  }
  const next = await deps.events.searchToContext({
    workspaceId: who.workspaceId,
    userId: ctx.userId,
    channelId: ctx.channelId,
    commandText: ctx.commandText,
    input: searchInputOf(ctx),
    from: ctx.cursor,
    pageNumber: ctx.pageNumber + 1,
    offset: (ctx.offset ?? 0) + ctx.events.length,
    ...(ctx.sort ? { sort: ctx.sort } : {}),
    ...(ctx.scope ? { scope: ctx.scope } : {}),
    ...(ctx.message ? { message: ctx.message } : {}),
  });
  await showContext(deps, next, targetOf(click, ctx));
}

async function secretAgain(click: Click<EventRowsDeps>): Promise<void> {
  const { ctx } = await load(click);
  if (ctx.kind !== 'search' || ctx.query.kind !== 'withheld') throw gone();
  await openSecretModal(click.client, click.body.trigger_id, {
    identifierId: ctx.identifierId,
    queryType: ctx.query.type,
    channelId: ctx.channelId,
  });
}

// ── Share in channel ────────────────────────────────────────────────────────────────────────────────

async function share(click: Click<EventRowsDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx } = await load(click);
  // Only a page of results offers Share: a digest or an alert is in its channel already.
  if (ctx.kind !== 'search') throw gone();
  const channel = who.channelId || ctx.channelId;
  if (ctx.events.length === 0) {
    await tell(click, 'There is nothing on this page to share.');
    return;
  }
  if (ctx.message !== undefined) {
    await tell(click, 'These results are already in the channel.');
    return;
  }
  // Post with the buttons of a first context, then point them at one that records where the message is.
  const draftId = await deps.events.contexts.save(ctx);
  const page = renderPage(ctx, draftId, deps.clock.now(), { inChannel: true, sharedBy: who.userId });
  const posted = await shareInChannel(click.client, channel, { text: page.text, blocks: page.blocks });
  if (posted.ts) {
    const shared = {
      ...ctx,
      message: { channel: posted.channel ?? channel, ts: posted.ts, sharedBy: who.userId },
    };
    // The draft's buttons work too (clicks carry the message location): a failed update is not fatal.
    await showContext(deps, shared, {
      kind: 'channel',
      channel: shared.message.channel,
      ts: shared.message.ts,
      client: click.client,
    }).catch((err: unknown) => deps.logger.warn('could not record the shared message location', { err }));
  }
  await deps.audit.record({
    teamId: who.workspaceId,
    userId: who.userId,
    action: 'events.share',
    target: ctx.scope === 'tenant' ? 'all' : String(ctx.identifierId),
    detail: `page ${ctx.pageNumber} in ${channel}`,
  });
  await click.respond({ delete_original: true });
}

// ── Explain ─────────────────────────────────────────────────────────────────────────────────────────

async function explain(click: Click<EventRowsDeps>): Promise<void> {
  const { ctx, index } = await load(click);
  const shown = index === undefined ? undefined : ctx.events[index];
  if (shown === undefined) throw gone();
  const uid = shown.event.metadata.uid;
  const text = await click.deps.events.explain(click.who.workspaceId, uid);
  await sendExplain(click.respond, renderExplain({ uid, text, now: click.deps.clock.now() }), false);
}

// ── Still working ───────────────────────────────────────────────────────────────────────────────────

const DOING: Readonly<Record<string, string>> = {
  [ACTION_IDS.ignore]: 'ignoring this event',
  [ACTION_IDS.remediate]: 'remediating this event',
  [ACTION_IDS.unignore]: 'unignoring this event',
  [ACTION_IDS.unremediate]: 'unremediating this event',
  [ACTION_IDS.undo]: 'undoing this',
  [ACTION_IDS.ignorePage]: 'ignoring the events of this page',
};

/**
 * The words of a slow click's notice: the action named, and what it waits on when the notice fires; an
 * explanation follows rather than updates.
 */
function noticeOf(action: ButtonAction, waiting: WaitKind | undefined): string | undefined {
  const base = parseActionId(action.action_id).base;
  if (base === ACTION_IDS.explain) {
    return `Still working on the explanation: ${waitingWords(waiting)}. It will follow here when it is ready.`;
  }
  const doing = DOING[base] ?? DOING[action.action_id];
  return doing
    ? `Still working on ${doing}: ${waitingWords(waiting)}. The message will update when it is done.`
    : undefined;
}

// ── Registration ────────────────────────────────────────────────────────────────────────────────────

const MENU_HANDLERS: Readonly<Record<string, (click: Click<EventRowsDeps>) => Promise<void>>> = {
  [ACTION_IDS.ignore]: actOnEvent,
  [ACTION_IDS.remediate]: actOnEvent,
  [ACTION_IDS.unignore]: actOnEvent,
  [ACTION_IDS.unremediate]: actOnEvent,
  [ACTION_IDS.undo]: actOnEvent,
  [ACTION_IDS.explain]: explain,
  [ACTION_IDS.tags]: (click) => click.deps.forms.triage(click),
  [ACTION_IDS.note]: (click) => click.deps.forms.triage(click),
  [ACTION_IDS.severity]: (click) => click.deps.forms.triage(click),
  [ACTION_IDS.triage]: (click) => click.deps.forms.triage(click),
  [ACTION_IDS.snooze]: (click) => click.deps.forms.snooze(click),
  [ACTION_IDS.unsnooze]: (click) => click.deps.forms.unsnooze(click),
  [ACTION_IDS.stealerLog]: (click) => click.deps.forms.stealerLog(click),
};

export function registerEventActions(app: App, deps: EventRowsDeps): void {
  const eventBlock = /^event:\d{1,6}$/;
  onAction(
    app,
    deps,
    { action_id: /^event_(?:ignore|remediate|unignore|unremediate|undo):\d{1,6}$/, block_id: eventBlock },
    (click) => inItsTenant(click, actOnEvent),
    { notice: noticeOf },
  );
  onAction(
    app,
    deps,
    { action_id: /^event_explain:\d{1,6}$/, block_id: eventBlock },
    (click) => inItsTenant(click, explain),
    { notice: noticeOf },
  );
  onAction(app, deps, { action_id: /^event_(?:unsnooze|snooze):\d{1,6}$/, block_id: eventBlock }, (click) =>
    parseActionId(click.action.action_id).base === ACTION_IDS.snooze
      ? deps.forms.snooze(click)
      : deps.forms.unsnooze(click),
  );
  // An event's overflow menu: the chosen option is handled exactly like the button it stands for.
  onMenu(
    app,
    deps,
    { action_id: /^event_more:\d{1,6}$/, block_id: eventBlock },
    (value, menuActionId) => {
      const chosen = parseOverflowValue(value);
      const { base, index } = parseActionId(chosen?.actionId ?? '');
      // An option must belong to the menu it was chosen from.
      if (chosen === undefined || index !== parseActionId(menuActionId).index) return undefined;
      return base in MENU_HANDLERS ? { action_id: chosen.actionId, value: chosen.value } : undefined;
    },
    (click) => {
      const handler = MENU_HANDLERS[parseActionId(click.action.action_id).base];
      if (handler === undefined) throw gone();
      return inItsTenant(click, handler);
    },
    { notice: noticeOf },
  );
  // The page buttons sit in the `events:tail` block: other features may reuse the same action ids.
  onAction(app, deps, { action_id: ACTION_IDS.nextPage, block_id: 'events:tail' }, (click) =>
    inItsTenant(click, nextPage),
  );
  onAction(
    app,
    deps,
    { action_id: ACTION_IDS.ignorePage, block_id: 'events:tail' },
    (click) => inItsTenant(click, ignorePage),
    { notice: noticeOf },
  );
  onAction(app, deps, { action_id: ACTION_IDS.share, block_id: 'events:tail' }, share);
  onAction(app, deps, EVENTS_SECRET_AGAIN, secretAgain);
}
