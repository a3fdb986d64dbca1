/** Block actions and view submissions routed to Vigil's handlers: one Bolt listener per kind. */
import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';

export type ActionConstraint = { action_id: RegExp | string; block_id?: RegExp | string };

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

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
export function routeAction(
  app: App,
  constraint: ActionConstraint,
  listener: (args: ActionArgs) => Promise<void>,
) {
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

/**
 * Where edits made in a Work Object's side panel go: Slack submits them as a view carrying the entity
 * (`view.external_ref`) rather than one of Vigil's modals, so they are routed by that when no callback id of
 * Vigil's matches.
 */
export const ENTITY_EDIT_VIEW = '(work object edit)';

/** Registers `listener` for submissions of the modal with `callbackId`. */
export function routeView(app: App, callbackId: string, listener: (args: ViewArgs) => Promise<void>) {
  const routes = routesOf(app);
  routes.views.set(callbackId, [...(routes.views.get(callbackId) ?? []), listener]);
  if (routes.viewsRouted) return;
  routes.viewsRouted = true;
  app.view<ViewSubmitAction>({ type: 'view_submission' }, async (args) => {
    const own = routes.views.get(args.view.callback_id);
    const entity = args.view.external_ref ? routes.views.get(ENTITY_EDIT_VIEW) : undefined;
    const listeners = own ?? entity ?? [];
    await Promise.all(listeners.map((listener) => listener(args)));
  });
}
