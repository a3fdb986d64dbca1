/**
 * `/vigil recommendations [type:…] [status:…] [query:…]`: ten at a time, with Next; Accept and Reject on
 * each row and for the whole page (permission `recommend`, checked on every click), acted on once however
 * many people click, and the list updated in place. An accepted row offers "Search its events" once its
 * identifier exists (else "Look for its identifier").
 */
import type { Recommendation, RecommendationAction } from '../../api/index.js';
import { WATCH_TYPES, type WatchType } from '../../api/index.js';
import { parseRowRef } from '../../domain/list-context.js';
import { renderWatchRefused } from '../../domain/watch-blocks.js';
import { IdentifierRefusedError } from '../../domain/watch-service.js';
import { ExpiredError, VigilError } from '../../kernel/errors.js';
import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { listCodeSpan, userMention } from '../../slack/kit/text.js';
import { type Click, onAction } from '../../slack/listen.js';
import {
  RECOMMENDATION_ACCEPT,
  RECOMMENDATION_RECHECK,
  RECOMMENDATION_REJECT,
  RECOMMENDATION_WATCH,
  RECOMMENDATIONS_ACCEPT_PAGE,
  RECOMMENDATIONS_NEXT,
  RECOMMENDATIONS_REJECT_PAGE,
  renderRecommendations,
} from './blocks.js';
import type { RecommendationsDeps } from './deps.js';
import { recommendationsSubcommands } from './grammar.js';
import { recommendedValue, type ShownRecommendations } from './list.js';
import type { DecideOutcome } from './service.js';

const STATUS_AFTER: Readonly<Record<RecommendationAction, string>> = {
  accept: 'accepted',
  reject: 'rejected',
};
const DONE_WORDS: Readonly<Record<RecommendationAction, string>> = { accept: 'accepted', reject: 'rejected' };

/** The page as a message: who decided what through Vigil, and the identifiers accepted rows became. */
async function renderShown(
  deps: RecommendationsDeps,
  workspaceId: string,
  shown: ShownRecommendations,
  shownRef: string,
  opts: { fresh?: boolean; notice?: string } = {},
) {
  const decisions = await deps.recommendations.decisionsOf(
    workspaceId,
    shown.items.map((r) => r.id),
  );
  const accepted = shown.items
    .filter((r) => r.status === 'accepted')
    .map((r) => ({ id: r.id, value: recommendedValue(r) }));
  const identifiers = await deps.recommendations
    .identifiersOfAccepted(workspaceId, accepted, {
      ...(opts.fresh ? { fresh: true } : {}),
    })
    .catch((err: unknown) => {
      // The list still shows; accepted rows offer to look again.
      deps.logger.warn('could not read identifiers for accepted recommendations', { err });
      return new Map();
    });
  return renderRecommendations({
    items: shown.items,
    first: shown.first,
    filters: shown.filters,
    nextRef: shown.nextRef,
    shownRef,
    decisions,
    identifiers,
    ...(opts.notice ? { notice: opts.notice } : {}),
  });
}

const recommendations: CommandHandler<'recommendations', RecommendationsDeps> = {
  progress: () => 'Listing identifier recommendations…',
  async run(ctx) {
    const { command } = ctx;
    const page = await ctx.deps.recommendations.page({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      filters: { types: command.types, status: command.status, query: command.query },
    });
    const shown = await ctx.deps.recommendations.loadShown(page.shownRef, ctx.workspaceId);
    await ctx.respond(ephemeral(await renderShown(ctx.deps, ctx.workspaceId, shown, page.shownRef), true));
  },
};

function outcomeNotice(
  action: RecommendationAction,
  outcome: DecideOutcome,
  items: readonly Recommendation[],
) {
  const name = (id: number) => {
    const r = items.find((x) => x.id === id);
    return r ? listCodeSpan(recommendedValue(r) || String(id), 120) : listCodeSpan(id);
  };
  const parts: string[] = [];
  if (outcome.decided.length > 0) {
    const who = userMention(outcome.decision.by) ?? 'A teammate';
    const what =
      outcome.decided.length === 1
        ? name(outcome.decided[0] ?? 0)
        : `${outcome.decided.length} recommendations`;
    parts.push(`:white_check_mark: ${who} ${DONE_WORDS[action]} ${what} · ${slackDate(outcome.decision.at)}`);
  }
  for (const b of outcome.before) {
    const who = userMention(b.decision.by) ?? 'A teammate';
    parts.push(
      `${who} had already ${DONE_WORDS[b.decision.action]} ${name(b.id)} ${slackDate(b.decision.at)}, so Vigil did nothing more.`,
    );
  }
  if (outcome.busy.length > 0) {
    parts.push(
      `A teammate is deciding ${outcome.busy.map(name).join(', ')} right now; Vigil did nothing more.`,
    );
  }
  return parts.join('\n');
}

/** Accept or Reject on one row (`…:<index>`) or on the whole page. */
async function decide(
  click: Click<RecommendationsDeps>,
  action: RecommendationAction,
  wholePage: boolean,
): Promise<void> {
  const { deps, who } = click;
  const ref = wholePage ? { ctxId: click.action.value ?? '', index: -1 } : parseRowRef(click.action.value);
  const shown = ref ? await deps.recommendations.loadShown(ref.ctxId, who.workspaceId) : undefined;
  const row = ref && shown && !wholePage ? shown.items[ref.index] : undefined;
  if (!shown || (!wholePage && !row)) {
    throw new ExpiredError(
      'This button no longer points at a recommendation Vigil knows.',
      'Run `/vigil recommendations` again.',
    );
  }
  await deps.authz.requirePermission(click.client, who.workspaceId, who.teamId, who.userId, 'recommend');
  const targets = (row ? [row] : shown.items.filter((r) => r.status !== STATUS_AFTER[action])).map((r) => ({
    id: r.id,
    value: recommendedValue(r),
  }));
  if (targets.length === 0) {
    await click.respond(
      ephemeral({ text: `Every recommendation on this page is already ${DONE_WORDS[action]}.` }, false),
    );
    return;
  }
  const outcome = await deps.recommendations.decide({
    workspaceId: who.workspaceId,
    by: who.userId,
    action,
    targets,
    wholePage,
  });
  const settled = new Set([
    ...outcome.decided,
    ...outcome.before.filter((b) => b.decision.action === action).map((b) => b.id),
  ]);
  const next: ShownRecommendations = {
    ...shown,
    items: shown.items.map((r) => (settled.has(r.id) ? { ...r, status: STATUS_AFTER[action] } : r)),
  };
  const nextRef = await deps.recommendations.saveShown(next);
  const message = await renderShown(deps, who.workspaceId, next, nextRef, {
    notice: outcomeNotice(action, outcome, shown.items),
  });
  await click.respond(ephemeral(message, true));
}

/** An accepted row whose identifier was not there: read the identifiers again and redraw the page. */
async function recheck(click: Click<RecommendationsDeps>): Promise<void> {
  const { deps, who } = click;
  const ref = parseRowRef(click.action.value);
  const shown = ref ? await deps.recommendations.loadShown(ref.ctxId, who.workspaceId) : undefined;
  if (!ref || !shown) {
    throw new ExpiredError('This list has expired.', 'Run `/vigil recommendations` again.');
  }
  const row = shown.items[ref.index];
  const message = await renderShown(deps, who.workspaceId, shown, ref.ctxId, { fresh: true });
  const found = row
    ? (
        await deps.recommendations.identifiersOfAccepted(who.workspaceId, [
          { id: row.id, value: recommendedValue(row) },
        ])
      ).size > 0
    : false;
  await click.respond(ephemeral(message, true));
  if (!found) {
    await click.respond(
      ephemeral(
        {
          text: 'Its identifier is not there yet: the platform creates it shortly after acceptance. Look again in a minute.',
        },
        false,
      ),
    );
  }
}

/**
 * "Watch it": an accepted recommendation that did not become an identifier is created as one (permission
 * `watch`, checked on the click), then the page is drawn again with its events button.
 */
async function watchIt(click: Click<RecommendationsDeps>): Promise<void> {
  const { deps, who } = click;
  const ref = parseRowRef(click.action.value);
  const shown = ref ? await deps.recommendations.loadShown(ref.ctxId, who.workspaceId) : undefined;
  const row = ref && shown ? shown.items[ref.index] : undefined;
  if (!ref || !shown || !row) {
    throw new ExpiredError('This list has expired.', 'Run `/vigil recommendations` again.');
  }
  await deps.authz.requirePermission(click.client, who.workspaceId, who.teamId, who.userId, 'watch');
  const type = String(row.data.type);
  const value = recommendedValue(row);
  if (!(WATCH_TYPES as readonly string[]).includes(type) || value === '') {
    throw new VigilError(
      'Vigil cannot watch this kind of recommendation from Slack.',
      'Add it in the portal, or with `/vigil identifiers add <type> <value>`.',
    );
  }
  try {
    await deps.watch.add({
      workspaceId: who.workspaceId,
      userId: who.userId,
      type: type as WatchType,
      value,
      origin: `recommendation ${row.id}`,
    });
  } catch (err) {
    if (!(err instanceof IdentifierRefusedError)) throw err;
    await click.respond(ephemeral(renderWatchRefused({ type, value }, err.problems), false));
    return;
  }
  await click.respond(ephemeral(await renderShown(deps, who.workspaceId, shown, ref.ctxId), true));
}

export const recommendationsFeature: Feature<RecommendationsDeps> = {
  subcommands: recommendationsSubcommands,
  commands: { recommendations },
  register(app, deps) {
    onAction(app, deps, RECOMMENDATIONS_NEXT, async ({ who, action, respond }) => {
      const page = await deps.recommendations.page({
        workspaceId: who.workspaceId,
        userId: who.userId,
        ref: action.value ?? '',
      });
      const shown = await deps.recommendations.loadShown(page.shownRef, who.workspaceId);
      await respond(ephemeral(await renderShown(deps, who.workspaceId, shown, page.shownRef), true));
    });
    const row = (base: string) => ({ action_id: new RegExp(`^${base}:\\d{1,3}$`) });
    onAction(app, deps, row(RECOMMENDATION_ACCEPT), (click) => decide(click, 'accept', false));
    onAction(app, deps, row(RECOMMENDATION_REJECT), (click) => decide(click, 'reject', false));
    onAction(app, deps, row(RECOMMENDATION_RECHECK), recheck);
    onAction(app, deps, row(RECOMMENDATION_WATCH), watchIt);
    onAction(app, deps, RECOMMENDATIONS_ACCEPT_PAGE, (click) => decide(click, 'accept', true));
    onAction(app, deps, RECOMMENDATIONS_REJECT_PAGE, (click) => decide(click, 'reject', true));
  },
};
