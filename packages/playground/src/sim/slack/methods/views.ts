/** views.* methods: modals need a fresh trigger_id, updates honour `hash`, Home is one view per user. */
import { viewProblems } from '../block-limits.js';
import type { SlackState } from '../state.js';
import type { FakeTeam, Json, StoredView } from '../types.js';
import { type BotMethod, fail, failWithMessages, str } from './common.js';

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function viewArgument(body: Json): { view: Json } | { error: Json } {
  const view = body.view;
  if (!isRecord(view)) return { error: fail('invalid_arguments') };
  const problems = viewProblems(view);
  if (problems.length > 0) return { error: failWithMessages('invalid_arguments', problems) };
  return { view };
}

function newHash(state: SlackState): string {
  return `${Math.floor(state.clock.now() / 1000)}.${state.randomKey(6)}`;
}

function viewJson(
  state: SlackState,
  team: FakeTeam,
  stored: StoredView,
  rootId: string,
  previous?: string,
): Json {
  const v = stored.view;
  return {
    id: stored.id,
    team_id: team.teamId,
    type: v.type,
    blocks: v.blocks ?? [],
    private_metadata: v.private_metadata ?? '',
    callback_id: v.callback_id ?? '',
    state: { values: {} },
    hash: stored.hash,
    title: v.title ?? { type: 'plain_text', text: 'View Title' },
    clear_on_close: v.clear_on_close ?? false,
    notify_on_close: v.notify_on_close ?? false,
    close: v.close ?? null,
    submit: v.submit ?? null,
    previous_view_id: previous ?? null,
    root_view_id: rootId,
    app_id: state.appId,
    external_id: v.external_id ?? '',
    app_installed_team_id: team.teamId,
    bot_id: team.botId,
  };
}

function store(
  state: SlackState,
  team: FakeTeam,
  view: Json,
  userId: string | undefined,
  id?: string,
): StoredView {
  const stored: StoredView = {
    id: id ?? state.nextId('V'),
    team_id: team.teamId,
    user_id: userId,
    view,
    hash: newHash(state),
  };
  state.views.set(stored.id, stored);
  return stored;
}

const open: BotMethod = ({ state, team, body }) => {
  const triggerError = state.spendTrigger(body.trigger_id);
  if (triggerError !== undefined) return fail(triggerError);
  const arg = viewArgument(body);
  if ('error' in arg) return arg.error;
  if (arg.view.type !== 'modal')
    return failWithMessages('invalid_arguments', ['must be modal [json-pointer:/view/type]']);
  const stored = store(state, team, arg.view, undefined);
  return { ok: true, view: viewJson(state, team, stored, stored.id) };
};

const push: BotMethod = ({ state, team, body }) => {
  const triggerError = state.spendTrigger(body.trigger_id);
  if (triggerError !== undefined) return fail(triggerError);
  const arg = viewArgument(body);
  if ('error' in arg) return arg.error;
  const stored = store(state, team, arg.view, undefined);
  return { ok: true, view: viewJson(state, team, stored, stored.id) };
};

const update: BotMethod = ({ state, team, body }) => {
  const viewId = str(body, 'view_id');
  const externalId = str(body, 'external_id');
  if (viewId === undefined && externalId === undefined) return fail('invalid_arguments');
  const existing =
    viewId !== undefined
      ? state.views.get(viewId)
      : [...state.views.values()].find((v) => v.view.external_id === externalId && v.team_id === team.teamId);
  if (existing === undefined || existing.team_id !== team.teamId) return fail('not_found');
  const hash = str(body, 'hash');
  if (hash !== undefined && hash !== existing.hash) return fail('hash_conflict');
  const arg = viewArgument(body);
  if ('error' in arg) return arg.error;
  const stored = store(state, team, arg.view, existing.user_id, existing.id);
  return { ok: true, view: viewJson(state, team, stored, stored.id) };
};

const publish: BotMethod = ({ state, team, body }) => {
  const userId = str(body, 'user_id');
  const user = state.users.get(userId ?? '');
  if (userId === undefined || user === undefined || user.team_id !== team.teamId)
    return fail('user_not_found');
  const arg = viewArgument(body);
  if ('error' in arg) return arg.error;
  if (arg.view.type !== 'home')
    return failWithMessages('invalid_arguments', ['must be home [json-pointer:/view/type]']);
  const homeKey = `${team.teamId}:${userId}`;
  const existingId = state.homes.get(homeKey);
  const existing = existingId === undefined ? undefined : state.views.get(existingId);
  const hash = str(body, 'hash');
  if (hash !== undefined && existing !== undefined && hash !== existing.hash) return fail('hash_conflict');
  const stored = store(state, team, arg.view, userId, existing?.id);
  state.homes.set(homeKey, stored.id);
  return { ok: true, view: viewJson(state, team, stored, stored.id) };
};

export const viewMethods: Record<string, BotMethod> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
