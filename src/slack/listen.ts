/**
 * The one way a listener is written: who asked (from the verified payload, never from a button value), the
 * ack first, the work tracked so shutdown can drain it, and any failure turned into one ephemeral reply.
 * Who asked is read in requester.ts, the routing to handlers is router.ts, the slow-click notice still-working.ts.
 */
import type {
  AckFn,
  App,
  BlockAction,
  ButtonAction,
  OverflowAction,
  RespondFn,
  ViewOutput,
  ViewResponseAction,
} from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { z } from 'zod';
import type { ListContexts } from '../domain/list-context.js';
import { type AuditSurface, onSurface } from '../kernel/audit-surface.js';
import { ExpiredError, NotAllowedError, type VigilError } from '../kernel/errors.js';
import type { WaitKind } from '../kernel/waiting-on.js';
import type { Requester, SlackBase } from './context.js';
import { answerFor, isExpected, refusalMessage, refusalView, reportError } from './error-reply.js';
import type { Access } from './permission-checks.js';
import { requesterOfAction } from './requester.js';
import { ephemeralPoster } from './respond.js';
import { type ActionConstraint, routeAction, routeView } from './router.js';
import { type ClickNotice, clickStillWorkingText, withClickNotice } from './still-working.js';

export type { ActionConstraint } from './router.js';

/** Runs work after the ack; a failure is logged with a reference and, when `respond` is given, answered. */
export function runTracked(
  deps: Pick<SlackBase, 'work' | 'logger'>,
  work: () => Promise<unknown>,
  respond: RespondFn | undefined,
  context: Record<string, unknown>,
): void {
  deps.work.tracker.run(work, (err) => reportError(deps, err, respond, context));
}

/** What a button handler receives. */
export interface Click<D extends SlackBase = SlackBase> {
  deps: D;
  who: Requester;
  body: BlockAction<ButtonAction>;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
}

/** Where a click was made, for the audit trail: App Home, a modal, or a message. */
function clickSurface(body: unknown): AuditSurface {
  const b = body as { view?: { type?: string }; container?: { type?: string } };
  if (b.view?.type === 'home') return 'home';
  return b.container?.type === 'view' ? 'form' : 'button';
}

/** Runs a click's handler tracked, with its notice unless `quiet` or there is nowhere to post it. */
function runClick(
  deps: SlackBase,
  args: { respond: RespondFn; client: WebClient; action: ButtonAction | undefined; who: Requester },
  clicked: (replies: { respond: RespondFn; client: WebClient }) => Promise<unknown>,
  opts: {
    quiet?: boolean;
    notice?: ClickNotice;
    inDm?: boolean;
    access?: Access;
    context: Record<string, unknown>;
    surface: AuditSurface;
  },
): void {
  const { who } = args;
  const access = opts.access ?? 'use';
  const handler = async (replies: { respond: RespondFn; client: WebClient }) => {
    await deps.authz.requireAccess(replies.client, who, access);
    return onSurface(opts.surface, () => clicked(replies));
  };
  const context = { ...opts.context, team: who.workspaceId, user: who.userId };
  // Bolt gives no respond to a click without a response_url (a button in a modal or App Home).
  if (opts.quiet || typeof args.respond !== 'function') {
    const answer = opts.inDm
      ? ephemeralPoster(args.client, '', who.userId)
      : opts.quiet
        ? undefined
        : args.respond;
    runTracked(deps, () => handler(args), answer, context);
    return;
  }
  const { action } = args;
  const text = (waiting: WaitKind | undefined) =>
    (action && opts.notice?.(action, waiting)) || clickStillWorkingText(waiting);
  const replies = withClickNotice(deps.work.sleep, args.respond, args.client, text);
  runTracked(
    deps,
    () => replies.watch(() => handler(replies)).finally(replies.cancel),
    replies.respond,
    context,
  );
}

/**
 * A button: acked at once, then `handler` runs tracked once the clicker passes `access` (`use` unless
 * given). Errors answer the clicker ephemerally unless
 * `quiet` (no progress notice); `inDm` answers them in the clicker's DM with Vigil instead (App Home has no
 * response_url, and a refusal must not be silent); a click still running after a few seconds tells the
 * clicker so once (`notice` words it), unless `quiet`.
 */
export function onAction<D extends SlackBase>(
  app: App,
  deps: D,
  constraint: ActionConstraint | string,
  handler: (click: Click<D>) => Promise<unknown>,
  opts: { quiet?: boolean; notice?: ClickNotice; inDm?: boolean; access?: Access } = {},
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
export function onMenu<D extends SlackBase>(
  app: App,
  deps: D,
  constraint: ActionConstraint,
  resolve: (
    value: string | undefined,
    menuActionId: string,
  ) => { action_id: string; value: string } | undefined,
  handler: (click: Click<D>) => Promise<unknown>,
  opts: { notice?: ClickNotice; access?: Access } = {},
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
export interface Submission<D extends SlackBase = SlackBase> {
  deps: D;
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
 * A modal submission, refused in its ack unless the submitter passes `access` (`use` unless given):
 * `check` answers the ack from the submitted values (field errors, a progress view, or
 * nothing to close); when it returns `work`, that runs tracked after the ack. A check that asks Slack
 * something first (is Vigil in the picked channel?) must bound its own wait well inside Slack's 3 seconds.
 */
export function onView<D extends SlackBase>(
  app: App,
  deps: D,
  callbackId: string,
  check: (submission: Submission<D>) => ViewOutcome | Promise<ViewOutcome>,
  access: Access = 'use',
): void {
  routeView(app, callbackId, async ({ ack, body, view, client }) => {
    const who = requesterOfAction(body as never);
    const refused = await deps.authz.requireAccess(client, who, access).then(
      () => undefined,
      (err: unknown) => err,
    );
    if (refused !== undefined) {
      const answer = answerFor(refused);
      if (!answer) throw refused;
      deps.logger.info('request refused', { refusal: answer.name, reason: answer.message, view: callbackId });
      await ack({ response_action: 'update', view: refusalView(refusalMessage(answer)) });
      return;
    }
    const outcome = await check({ deps, who, view, client });
    await ack(outcome.ack);
    const { work, scrub } = outcome;
    if (!work) return;
    deps.work.tracker.run(
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

/** A pending form's submission, once its record is loaded: `show` puts a status in its modal. */
/** What a pending form's submission needs besides the plumbing: the record the form was opened with. */
export interface StatusFormDeps extends SlackBase {
  lists: Pick<ListContexts, 'load'>;
}

export interface StatusSubmission<F, P, D extends StatusFormDeps = StatusFormDeps> extends Submission<D> {
  form: F;
  pending: P;
  show: (text: string) => Promise<unknown>;
  /** The heading the modal's statuses show from now on (what the form is about, from the record). */
  headed: (heading: string) => void;
}

type PendingSchema = z.ZodType<{ workspaceId: string; kind: string }>;

export interface StatusForm<
  F extends object,
  S extends PendingSchema,
  D extends StatusFormDeps = StatusFormDeps,
> {
  /** Named in the log of a failure ("triage failed"). */
  name: string;
  /** The submitted values, or the errors to say beside their fields. */
  read: (view: ViewOutput) => F | { errors: Record<string, string> };
  /** The record the form was opened with (its id is the view's private metadata): kept how long, run again how. */
  pending: { schema: S; again: string; ttlMs?: number };
  /** The modal saying `text`, under the heading the submission found (none yet at first). */
  status: (heading: string | undefined, text: string) => View;
  /** Said at once, while the work runs. */
  progress: string;
  /** What an unforeseen failure leaves undone ("nothing was changed"). */
  undone: string;
  /** A foreseen failure said in the form's own words; undefined leaves it to the common ones. */
  told?: (err: VigilError) => string | undefined;
  submit: (submission: StatusSubmission<F, z.output<S>, D>) => Promise<void>;
}

/**
 * A pending form whose outcome is said in its own modal (triage, snooze, unassign): field errors beside
 * their fields, else the progress at once and the work after the ack, on the record loaded for the
 * submitter's workspace. A refusal or expiry is an answer, not an incident; another foreseen failure is
 * logged and said; anything else is reported and its reference said.
 */
export function onStatusForm<F extends object, S extends PendingSchema, D extends StatusFormDeps>(
  app: App,
  deps: D,
  callbackId: string,
  spec: StatusForm<F, S, D>,
): void {
  onView(app, deps, callbackId, (submission) => {
    const form = spec.read(submission.view);
    if ('errors' in form) return { ack: { response_action: 'errors', errors: form.errors } };
    return {
      ack: { response_action: 'update', view: spec.status(undefined, spec.progress) },
      work: () => runStatusForm(spec, callbackId, submission, form as F),
    };
  });
}

async function runStatusForm<F extends object, S extends PendingSchema, D extends StatusFormDeps>(
  spec: StatusForm<F, S, D>,
  callbackId: string,
  submission: Submission<D>,
  form: F,
): Promise<void> {
  const { deps, who, view, client } = submission;
  let heading: string | undefined;
  const show = (text: string) => client.views.update({ view_id: view.id, view: spec.status(heading, text) });
  try {
    const { schema, again, ttlMs } = spec.pending;
    const pending = await deps.lists.load(schema, view.private_metadata, who.workspaceId, again, ttlMs);
    const headed = (h: string) => {
      heading = h;
    };
    await spec.submit({ ...submission, form, pending, show, headed });
  } catch (err) {
    const own = isExpected(err) ? spec.told?.(err) : undefined;
    if (own !== undefined) await show(own);
    else if (err instanceof NotAllowedError || err instanceof ExpiredError) {
      await show(`:no_entry: ${err.told} ${err.hint}`);
    } else if (isExpected(err)) {
      deps.logger.warn(`${spec.name} failed`, { err });
      await show(`:warning: ${err.told} ${err.hint}`);
    } else {
      const ref = await reportError(deps, err, undefined, { view: callbackId, team: who.workspaceId });
      await show(`:warning: Something went wrong on Vigil’s side, so ${spec.undone}. Reference \`${ref}\`.`);
    }
  }
}
