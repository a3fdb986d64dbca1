/**
 * users.lookupByEmail as published (https://docs.slack.dev/reference/methods/users.lookupByEmail): the user
 * object users.info gives for the member whose profile e-mail it is (case-insensitive), `users_not_found`
 * when the workspace has none. A deactivated member is answered with `deleted: true`, a guest with
 * `is_restricted`/`is_ultra_restricted`, a bot with `is_bot`, as in users.info: callers tell them apart.
 */
import type { FakeUser } from '../types.js';
import { type BotMethod, fail, str } from './common.js';
import { userJson } from './directory.js';

const emailOf = (u: FakeUser) => (u.email ?? `${u.name}@example.com`).toLowerCase();

const lookupByEmail: BotMethod = ({ state, team, body }) => {
  const email = str(body, 'email')?.trim().toLowerCase();
  if (email === undefined || email === '') return fail('invalid_arguments');
  const user = [...state.users.values()].find(
    (u) =>
      emailOf(u) === email &&
      (u.team_id === team.teamId ||
        (team.enterpriseId !== undefined && u.enterprise_id === team.enterpriseId)),
  );
  return user === undefined ? fail('users_not_found') : { ok: true, user: userJson(user) };
};

export const userMethods: Record<string, BotMethod> = { 'users.lookupByEmail': lookupByEmail };
