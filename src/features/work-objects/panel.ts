/**
 * The side panel (flexpane) of an event card, per person: `entity_details_requested` → `entity.presentDetails`
 * with what that person may see and do; the panel's actions (Ignore, Remediate, Undo, Snooze, Explain, Reveal) and
 * its edits (severity override, tags: a view submission carrying the entity), each checked again
 * server-side, made through the same services as buttons and forms, audited, and the panel presented again.
 * A member of another workspace, or a workspace with no connection, gets an error panel, never data.
 */
import type { App } from '@slack/bolt';
import type { EntityActionButton, SlackEvent } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { EventActionType, Severity } from '../../api/index.js';
import { CONTAIN_OPEN_PANEL, containPanelRef, eventIdentity } from '../../domain/contain-entry.js';
import {
  ENTITY_ACTIONS,
  ENTITY_EDIT_FIELDS,
  flexpaneEntity,
  severityChoice,
} from '../../domain/work-object-entity.js';
import type { Permission } from '../../kernel/permission-rules.js';
import { detectSecret } from '../../slack/grammar/index.js';
import { onAction, runTracked } from '../../slack/listen.js';
import { type EnvelopeIds, requesterOfAction, workspaceOfEnvelope } from '../../slack/requester.js';
import { ENTITY_EDIT_VIEW, routeView } from '../../slack/router.js';
import { entityError } from './blocks-error.js';
import { snoozeActions, snoozeFields } from './blocks-snooze.js';
import type { Viewer, WorkObjectsDeps } from './deps.js';
import { snoozeFromPanel } from './panel-snooze.js';
import type { OpenedFrom, Resolution } from './service.js';

type EntityDetailsRequestedEvent = Extract<SlackEvent, { type: 'entity_details_requested' }>;

const may = (deps: WorkObjectsDeps, client: WebClient, v: Viewer, permission: Permission): Promise<boolean> =>
  deps.authz.may(client, v, permission);

/** Whether the person is a member of the workspace Vigil serves here (a Slack Connect partner is not). */
async function isMember(client: WebClient, v: Viewer): Promise<boolean> {
  const res = await client.users.info({ user: v.userId }).catch(() => undefined);
  const user = res?.user;
  if (!user || user.deleted) return false;
  return v.enterprise || user.team_id === v.teamId;
}

/** *Contain…* for a holder of `contain` when a provider is connected and the event names one identity. */
async function containAction(
  deps: WorkObjectsDeps,
  client: WebClient,
  v: Viewer,
  found: Extract<Resolution, { kind: 'event' }>,
): Promise<EntityActionButton[]> {
  if (deps.containment === undefined || eventIdentity(found.event) === undefined) return [];
  if (!(await deps.containment.connected(v.workspaceId))) return [];
  if (!(await may(deps, client, v, 'contain'))) return [];
  return [{ text: 'Contain…', action_id: CONTAIN_OPEN_PANEL, value: containPanelRef(found.uid) }];
}

/** Presents the panel of `found` to one person, or the error panel saying why not. */
async function present(
  deps: WorkObjectsDeps,
  client: WebClient,
  v: Viewer,
  triggerId: string,
  found: Resolution,
  extra: { revealed?: boolean; explanation?: string | null } = {},
): Promise<void> {
  if (found.kind === 'not-portal') return;
  if (found.kind !== 'event') {
    await client.entity.presentDetails({ trigger_id: triggerId, error: entityError(found.kind) });
    return;
  }
  const [mayAct, mayReveal, contain] = await Promise.all([
    may(deps, client, v, 'act'),
    may(deps, client, v, 'reveal'),
    containAction(deps, client, v, found),
  ]);
  const tagOptions = mayAct ? await deps.knownTags.list(v.workspaceId, found.tenantId) : [];
  const snoozed = (await deps.snoozes.matcher(v.workspaceId))(found.event);
  const metadata = flexpaneEntity(
    found,
    {
      mayAct,
      mayReveal,
      revealed: extra.revealed === true && mayReveal,
      tagOptions,
      ...(extra.explanation === undefined ? {} : { explanation: extra.explanation }),
    },
    {
      url: found.flareUrl,
      extraOverflow: [...(mayAct ? snoozeActions(found.uid, snoozed) : []), ...contain],
      extraFields: snoozeFields(snoozed),
    },
  );
  await client.entity.presentDetails({ trigger_id: triggerId, metadata });
}

function viewerOfEnvelope(body: EnvelopeIds, userId: string): Viewer {
  const auth = body.authorizations?.[0];
  return {
    workspaceId: workspaceOfEnvelope(body),
    teamId: auth?.team_id ?? body.team_id ?? '',
    enterprise: (auth?.is_enterprise_install ?? body.is_enterprise_install) === true,
    userId,
  };
}

function registerDetails(app: App, deps: WorkObjectsDeps): void {
  app.event('entity_details_requested', async ({ event, body, client }) => {
    const asked = event as unknown as EntityDetailsRequestedEvent;
    const v = viewerOfEnvelope(body as EnvelopeIds, asked.user);
    runTracked(
      deps,
      async () => {
        if (!(await isMember(client, v))) {
          await client.entity.presentDetails({
            trigger_id: asked.trigger_id,
            error: entityError('other-workspace'),
          });
          return;
        }
        // Who may not use Vigil here (a guest no group lets in, or `use` kept for some) sees no event data.
        if (!(await may(deps, client, v, 'use'))) {
          await client.entity.presentDetails({
            trigger_id: asked.trigger_id,
            error: entityError('not-allowed'),
          });
          return;
        }
        const uid = asked.external_ref?.id;
        const from = { channel: asked.channel, ts: asked.message_ts };
        const found = uid
          ? await deps.workObjects.resolveUid(v.workspaceId, uid, from)
          : await deps.workObjects.resolveLink(v.workspaceId, asked.app_unfurl_url ?? asked.link.url);
        await present(deps, client, v, asked.trigger_id, found);
      },
      undefined,
      { event: 'entity_details_requested', team: v.workspaceId },
    );
  });
}

const ACTS: Record<string, EventActionType> = {
  [ENTITY_ACTIONS.ignore]: 'ignore',
  [ENTITY_ACTIONS.remediate]: 'remediate',
  [ENTITY_ACTIONS.unignore]: 'unignore',
  [ENTITY_ACTIONS.unremediate]: 'unremediate',
};

type EntityDetailContainer = {
  type?: string;
  external_ref?: { id?: unknown };
  channel_id?: unknown;
  message_ts?: unknown;
};

/**
 * The event a panel's button is about (its value, the uid Vigil set, else the entity the panel shows) and
 * the message the panel was opened from. A panel's click comes with an `entity_detail` container naming
 * the entity (`external_ref`, `entity_url`, `app_unfurl_url`) and that message (`channel_id`,
 * `message_ts`), with no view and no response_url.
 */
function clicked(
  body: { container?: unknown },
  action: { value?: string },
): { uid: string; from: OpenedFrom } {
  const c = body.container as EntityDetailContainer | undefined;
  const panel = c?.type === 'entity_detail' ? c : undefined;
  const id = panel?.external_ref?.id;
  const text = (x: unknown) => (typeof x === 'string' ? x : undefined);
  return {
    uid: action.value || (text(id) ?? ''),
    from: { channel: text(panel?.channel_id), ts: text(panel?.message_ts) },
  };
}

function registerActions(app: App, deps: WorkObjectsDeps): void {
  onAction(
    app,
    deps,
    { action_id: /^vigil_entity_/ },
    async ({ who, body, action, client }) => {
      const v: Viewer = {
        workspaceId: who.workspaceId,
        teamId: who.teamId,
        enterprise: body.is_enterprise_install === true,
        userId: who.userId,
      };
      const triggerId = body.trigger_id;
      const { uid, from } = clicked(body, action);
      const found = await deps.workObjects.resolveUid(v.workspaceId, uid, from);
      if (found.kind !== 'event') return present(deps, client, v, triggerId, found);
      if (await snoozeFromPanel(deps, client, v, found, action.action_id)) {
        return present(deps, client, v, triggerId, found);
      }
      const act = ACTS[action.action_id];
      if (act !== undefined) {
        await deps.authz.requireActor(client, v.workspaceId, v.teamId, v.userId);
        await deps.workObjects.act({
          workspaceId: v.workspaceId,
          resolved: found,
          action: act,
          by: v.userId,
        });
        return present(
          deps,
          client,
          v,
          triggerId,
          await deps.workObjects.resolveUid(v.workspaceId, found.uid, from),
        );
      }
      if (action.action_id === ENTITY_ACTIONS.reveal) {
        await deps.authz.requirePermission(client, v.workspaceId, v.teamId, v.userId, 'reveal');
        // Stored highlights hold password-like words masked: the words are read live, audited once shown.
        const live = await deps.workObjects.withLiveHighlights(v.workspaceId, found);
        await deps.workObjects.recordReveal(v.workspaceId, found, v.userId);
        return present(deps, client, v, triggerId, live, { revealed: true });
      }
      if (action.action_id === ENTITY_ACTIONS.explain) {
        const explanation = (await deps.workObjects.explain(v.workspaceId, found)) ?? null;
        return present(deps, client, v, triggerId, found, { explanation });
      }
      return undefined;
    },
    // A panel has no response_url: a refusal is told in the person's DM with Vigil.
    { inDm: true, quiet: true },
  );
}

/** The bounds of the triage form's tags. */
const MAX_TAGS = 20;
const MAX_TAG = 75;

type StateValue = {
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
};

/** The submitted value of a field, whether Slack keys it by block or by action id. */
function submitted(values: Record<string, Record<string, StateValue>>, key: string): StateValue | undefined {
  for (const [blockId, actions] of Object.entries(values)) {
    if (blockId === key) return Object.values(actions)[0];
    if (actions[key]) return actions[key];
  }
  return undefined;
}

function registerEdits(app: App, deps: WorkObjectsDeps): void {
  routeView(app, ENTITY_EDIT_VIEW, async ({ ack, body, view, client }) => {
    const who = requesterOfAction(body as never);
    const v: Viewer = {
      workspaceId: who.workspaceId,
      teamId: who.teamId,
      enterprise: body.is_enterprise_install === true,
      userId: who.userId,
    };
    const values = view.state.values as Record<string, Record<string, StateValue>>;
    const severityValue = submitted(values, ENTITY_EDIT_FIELDS.severity);
    const tagsValue = submitted(values, ENTITY_EDIT_FIELDS.tags);
    const change: { severity?: Severity | null; tags?: string[] } = {};
    if (severityValue !== undefined) {
      const chosen = severityChoice(severityValue.selected_option?.value ?? severityValue.value ?? undefined);
      if (chosen === undefined) {
        await ack({
          response_action: 'errors',
          errors: { [ENTITY_EDIT_FIELDS.severity]: 'Pick a severity.' },
        });
        return;
      }
      change.severity = chosen;
    }
    if (tagsValue !== undefined) {
      const raw = tagsValue.selected_options?.map((o) => o.value) ?? (tagsValue.value ?? '').split(',');
      const tags = [...new Set(raw.map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean))];
      const problem =
        tags.length > MAX_TAGS
          ? `At most ${MAX_TAGS} tags.`
          : tags.some((t) => t.length > MAX_TAG)
            ? `Each tag at most ${MAX_TAG} characters.`
            : tags.some((t) => detectSecret(t) !== undefined)
              ? 'A tag looks like a password or key: tags are seen by the whole tenant.'
              : undefined;
      if (problem) {
        await ack({ response_action: 'errors', errors: { [ENTITY_EDIT_FIELDS.tags]: problem } });
        return;
      }
      change.tags = tags;
    }
    const edited = severityValue !== undefined ? ENTITY_EDIT_FIELDS.severity : ENTITY_EDIT_FIELDS.tags;
    if (!(await may(deps, client, v, 'act'))) {
      await ack({
        response_action: 'errors',
        errors: {
          [edited]: 'You may not change events in this workspace: ask an admin (/vigil settings act).',
        },
      });
      return;
    }
    await ack();
    const uid = view.external_ref?.id ?? '';
    const from = { channel: view.channel, ts: view.message_ts };
    runTracked(
      deps,
      async () => {
        const found = await deps.workObjects.resolveUid(v.workspaceId, uid, from);
        if (found.kind === 'event' && (change.severity !== undefined || change.tags !== undefined)) {
          await deps.workObjects.edit({ workspaceId: v.workspaceId, resolved: found, by: v.userId, change });
        }
        const now = await deps.workObjects.resolveUid(v.workspaceId, uid, from);
        await present(deps, client, v, body.trigger_id, now);
      },
      undefined,
      { view: 'entity-edit', team: v.workspaceId, user: v.userId },
    );
  });
}

export function registerPanel(app: App, deps: WorkObjectsDeps): void {
  registerDetails(app, deps);
  registerActions(app, deps);
  registerEdits(app, deps);
}
