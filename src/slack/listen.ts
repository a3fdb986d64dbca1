/**
 * The one way a listener is written: who asked (from the verified payload, never from a button value), the
 * ack first, the work tracked so shutdown can drain it, and any failure turned into one ephemeral reply.
 */
import type {
  AckFn,
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  OverflowAction,
  RespondFn,
  SlackAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  SlashCommand,
  ViewOutput,
  ViewResponseAction,
  ViewSubmitAction,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ExpiredError } from '../errors.js';
import { type AuditSurface, onSurface } from '../services/audit.js';
import { workspaceKey } from '../store/index.js';
import type { Requester, SlackDeps } from './context.js';
import { reportError } from './error-reply.js';
import { stillWorking } from './still-working.js';

type InteractionBody = Pick<SlackAction, 'team' | 'user'> & {
  enterprise?: { id: string } | null;
  is_enterprise_install?: boolean;
  channel?: { id: string };
  container?: { channel_id?: string };
};

/** Who clicked or submitted, from the verified interaction payload. */
export function requesterOfAction(body: SlackAction | InteractionBody): Requester {
  const b = body as InteractionBody;
  const teamId = b.team?.id ?? '';
  const enterpriseId = b.enterprise?.id ?? undefined;
  return {
    workspaceId: workspaceKey({
      teamId,
      enterpriseId,
      isEnterpriseInstall: b.is_enterprise_install === true,
    }),
    teamId,
    enterpriseId,
    userId: b.user.id,
    channelId: b.channel?.id ?? b.container?.channel_id ?? '',
  };
}

/** Who typed a slash command. */
export function requesterOfCommand(command: SlashCommand): Requester {
  const enterpriseId = command.enterprise_id || undefined;
  return {
    workspaceId: workspaceKey({
      teamId: command.team_id,
      enterpriseId,
      isEnterpriseInstall: command.is_enterprise_install === 'true',
    }),
    teamId: command.team_id,
    enterpriseId,
    userId: command.user_id,
    channelId: command.channel_id,
  };
}

export interface EnvelopeIds {
  team_id?: string;
  enterprise_id?: string;
  is_enterprise_install?: boolean;
  authorizations?: {
    team_id?: string | null;
    enterprise_id?: string | null;
    is_enterprise_install?: boolean;
  }[];
}

/** The workspace of an Events API envelope (org-wide installs are keyed by their enterprise). */
export function workspaceOfEnvelope(body: EnvelopeIds): string {
  const auth = body.authorizations?.[0];
  return workspaceKey({
    teamId: auth?.team_id ?? body.team_id,
    enterpriseId: auth?.enterprise_id ?? body.enterprise_id,
    isEnterpriseInstall: auth?.is_enterprise_install ?? body.is_enterprise_install,
  });
}

/** Runs work after the ack; a failure is logged with a reference and, when `respond` is given, answered. */
export function runTracked(
  deps: Pick<SlackDeps, 'tracker' | 'logger'>,
  work: () => Promise<unknown>,
  respond: RespondFn | undefined,
  context: Record<string, unknown>,
): void {
  deps.tracker.run(work, (err) => reportError(deps, err, respond, context));
}

/** What a button handler receives. */
export interface Click {
  deps: SlackDeps;
  who: Requester;
  body: BlockAction<ButtonAction>;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
}

export type ActionConstraint = { action_id: RegExp | string; block_id?: RegExp | string };

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * Vigil's buttons and modals reach their handlers through one Bolt listener per kind, which looks the
 * handler up itself. Bolt runs every registered listener's middleware chain for every request (a slash
 * command included), so forty listeners cost every ack forty chains; two routers cost two.
 */
interface Routes {
  actions: Array<{ constraint: ActionConstraint; listener: (args: ActionArgs) => Promise<void> }>;
  views: Map<string, Array<(args: ViewArgs) => Promise<void>>>;
  actionsRouted: boolean;
  viewsRouted: boolean;
}
const routesByApp = new WeakMap<App, Routes>();

function routesOf(app: App): Routes {
  let routes = routesByApp.get(app);
  if (!routes) {
    routes = { actions: [], views: new Map(), actionsRouted: false, viewsRouted: false };
    routesByApp.set(app, routes);
  }
  return routes;
}

const matches = (pattern: RegExp | string | undefined, value: string | undefined): boolean =>
  pattern === undefined ||
  (value !== undefined && (typeof pattern === 'string' ? pattern === value : pattern.test(value)));

/** Registers `listener` for block actions matching `constraint` (Bolt's own matching rules). */
function routeAction(app: App, constraint: ActionConstraint, listener: (args: ActionArgs) => Promise<void>) {
  const routes = routesOf(app);
  routes.actions.push({ constraint, listener });
  if (routes.actionsRouted) return;
  routes.actionsRouted = true;
  app.action({ type: 'block_actions' }, async (args) => {
    const { action_id, block_id } = args.action as { action_id?: string; block_id?: string };
    const hits = routes.actions.filter(
      ({ constraint: c }) => matches(c.action_id, action_id) && matches(c.block_id, block_id),
    );
    // Like Bolt with several matching listeners: all run; an unmatched action is left unacknowledged.
    await Promise.all(hits.map(({ listener }) => listener(args)));
  });
}

/** Registers `listener` for submissions of the modal with `callbackId`. */
function routeView(app: App, callbackId: string, listener: (args: ViewArgs) => Promise<void>) {
  const routes = routesOf(app);
  routes.views.set(callbackId, [...(routes.views.get(callbackId) ?? []), listener]);
  if (routes.viewsRouted) return;
  routes.viewsRouted = true;
  app.view<ViewSubmitAction>({ type: 'view_submission' }, async (args) => {
    const listeners = routes.views.get(args.view.callback_id) ?? [];
    await Promise.all(listeners.map((listener) => listener(args)));
  });
}

/** Said once to a clicker whose click has not been answered after a few seconds (see still-working.ts). */
export const CLICK_STILL_WORKING_TEXT =
  'Still working on it: the threat-intel API is slow to answer. The message will update when it answers.';

/** What a slow click's notice says, for the button clicked; undefined for the general words. */
export type ClickNotice = (action: ButtonAction) => string | undefined;

/**
 * A click's `respond` and `client` with the "still working" notice attached: a new ephemeral message to the
 * clicker (`replace_original: false`, so the message the button is on, maybe a channel message others see, is
 * never replaced). The click's own replies wait for a notice on its way, so a reply that replaces the original
 * is posted after it, never raced by it; a click that opens a modal tells its progress there and gets none.
 */
function withNotice(deps: SlackDeps, respond: RespondFn, client: WebClient, text: string) {
  const notice = stillWorking(deps.sleep, respond, {
    response_type: 'ephemeral',
    replace_original: false,
    text,
  });
  const open = ((args: Parameters<WebClient['views']['open']>[0]) => {
    notice.cancel();
    return client.views.open(args);
  }) as WebClient['views']['open'];
  // The client's methods are bound to it: a view of it with views.open watched calls the same client.
  const watched = Object.create(client, { views: { value: { ...client.views, open } } }) as WebClient;
  return { respond: notice.respond, client: watched, cancel: notice.cancel };
}

/** Where a click was made, for the audit trail: App Home, a modal, or a message. */
function clickSurface(body: unknown): AuditSurface {
  const b = body as { view?: { type?: string }; container?: { type?: string } };
  if (b.view?.type === 'home') return 'home';
  return b.container?.type === 'view' ? 'form' : 'button';
}

/** Runs a click's handler tracked, with its notice unless `quiet` or there is nowhere to post it. */
function runClick(
  deps: SlackDeps,
  args: { respond: RespondFn; client: WebClient; action: ButtonAction | undefined; who: Requester },
  clicked: (replies: { respond: RespondFn; client: WebClient }) => Promise<unknown>,
  opts: { quiet?: boolean; notice?: ClickNotice; context: Record<string, unknown>; surface: AuditSurface },
): void {
  const { who } = args;
  const handler = (replies: { respond: RespondFn; client: WebClient }) =>
    onSurface(opts.surface, () => clicked(replies));
  const context = { ...opts.context, team: who.workspaceId, user: who.userId };
  // Bolt gives no respond to a click without a response_url (a button in a modal or App Home).
  if (opts.quiet || typeof args.respond !== 'function') {
    runTracked(deps, () => handler(args), opts.quiet ? undefined : args.respond, context);
    return;
  }
  const text = (args.action && opts.notice?.(args.action)) || CLICK_STILL_WORKING_TEXT;
  const replies = withNotice(deps, args.respond, args.client, text);
  runTracked(deps, () => handler(replies).finally(replies.cancel), replies.respond, context);
}

/**
 * A button: acked at once, then `handler` runs tracked. Errors answer the clicker ephemerally unless
 * `quiet` (surfaces without a response_url, such as App Home, only log them); a click still running after a
 * few seconds tells the clicker so once (`notice` words it), unless `quiet`.
 */
export function onAction(
  app: App,
  deps: SlackDeps,
  constraint: ActionConstraint | string,
  handler: (click: Click) => Promise<unknown>,
  opts: { quiet?: boolean; notice?: ClickNotice } = {},
): void {
  const constraints = typeof constraint === 'string' ? { action_id: constraint } : constraint;
  routeAction(app, constraints, async (args) => {
    const body = args.body as BlockAction<ButtonAction>;
    const action = args.action as ButtonAction;
    await args.ack();
    const who = requesterOfAction(body);
    runClick(
      deps,
      { respond: args.respond, client: args.client, action, who },
      ({ respond, client }) => handler({ deps, who, body, action, respond, client }),
      { ...opts, context: { action: action.action_id }, surface: clickSurface(body) },
    );
  });
}

/**
 * An overflow menu whose options stand for buttons: `resolve` maps the chosen option's value (and the menu's
 * action id) to the button it stands for, or undefined for anything that is not one of ours; `handler` then
 * runs as if that button had been clicked. Acked at once like a button, with the same notice.
 */
export function onMenu(
  app: App,
  deps: SlackDeps,
  constraint: ActionConstraint,
  resolve: (
    value: string | undefined,
    menuActionId: string,
  ) => { action_id: string; value: string } | undefined,
  handler: (click: Click) => Promise<unknown>,
  opts: { notice?: ClickNotice } = {},
): void {
  routeAction(app, constraint, async (args) => {
    const body = args.body as BlockAction<OverflowAction>;
    const action = args.action as OverflowAction;
    await args.ack();
    const who = requesterOfAction(body);
    const chosen = resolve(action.selected_option?.value, action.action_id);
    const button: ButtonAction | undefined = chosen && {
      type: 'button',
      action_id: chosen.action_id,
      block_id: action.block_id,
      value: chosen.value,
      text: action.selected_option?.text ?? { type: 'plain_text', text: chosen.action_id },
      action_ts: action.action_ts,
    };
    runClick(
      deps,
      { respond: args.respond, client: args.client, action: button, who },
      async ({ respond, client }) => {
        if (button === undefined) {
          throw new ExpiredError(
            'This menu no longer points at anything Vigil knows.',
            'Run the search again.',
          );
        }
        const asClick = body as unknown as BlockAction<ButtonAction>;
        return handler({ deps, who, body: asClick, action: button, respond, client });
      },
      { ...opts, context: { action: chosen?.action_id ?? action.action_id }, surface: clickSurface(body) },
    );
  });
}

/** What a modal submission handler receives. */
export interface Submission {
  deps: SlackDeps;
  who: Requester;
  view: ViewOutput;
  client: WebClient;
}

type ViewAck = Parameters<AckFn<ViewResponseAction>>[0];

export interface ViewOutcome {
  ack?: ViewAck;
  work?: () => Promise<unknown>;
  /** Where errors of `work` are told; only logged when absent. */
  respond?: RespondFn;
  /** Applied to an error before it is reported (e.g. to scrub a secret). */
  scrub?: (err: unknown) => unknown;
}

/**
 * A modal submission: `check` answers the ack from the submitted values (field errors, a progress view, or
 * nothing to close); when it returns `work`, that runs tracked after the ack. A check that asks Slack
 * something first (is Vigil in the picked channel?) must bound its own wait well inside Slack's 3 seconds.
 */
export function onView(
  app: App,
  deps: SlackDeps,
  callbackId: string,
  check: (submission: Submission) => ViewOutcome | Promise<ViewOutcome>,
): void {
  routeView(app, callbackId, async ({ ack, body, view, client }) => {
    const who = requesterOfAction(body as never);
    const outcome = await check({ deps, who, view, client });
    await ack(outcome.ack);
    const { work, scrub } = outcome;
    if (!work) return;
    deps.tracker.run(
      () => onSurface('form', work),
      (err) =>
        reportError(deps, scrub ? scrub(err) : err, outcome.respond, {
          view: callbackId,
          team: who.workspaceId,
          user: who.userId,
        }),
    );
  });
}
