/**
 * Who may use this installation: the one check every Slack request passes before any listener runs, in Bolt's
 * `authorize` (both transports). Bolt hands it the request's authoritative ids, per payload kind: a command's
 * `team_id`, an action's or shortcut's `team.id` (`user.team_id` for org-wide installs), a view's
 * `view.app_installed_team_id` (a modal opened in a Slack Connect channel), an event's `authorizations[0]`.
 *
 * - Single-workspace mode serves the workspace of its bot token (auth.test): a request of any other team or
 *   organization is refused, so a Slack Connect partner or another workspace of an Enterprise Grid never
 *   reaches the workspace's API key.
 * - OAuth mode serves each team with its own installation only; a team without one is refused.
 * - In both, an interaction whose acting member belongs to another workspace (a Slack Connect partner clicking
 *   in a shared channel arrives with the host's `team`, but its own `user.team_id`) is refused too.
 */
import type { Authorize, AuthorizeResult, AuthorizeSourceData } from '@slack/bolt';
import type { InstallProvider } from '@slack/oauth';
import type { WebClient } from '@slack/web-api';
import { RefusalError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import { ephemeral } from './context.js';
import { answerFor, refusalMessage, refusalView, reportError } from './error-reply.js';
import { postToResponseUrl } from './respond.js';

export interface ServedWorkspace {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  /** An org-wide install serves every workspace of its organization. */
  isEnterpriseInstall: boolean;
}

/** A request from a workspace this installation does not serve. */
class ForeignWorkspaceError extends RefusalError {
  constructor(readonly requestTeam: string | undefined) {
    super(
      'Vigil here serves another Slack workspace, so it does not act for members of yours.',
      'Each workspace uses Vigil through its own installation and connection: ask an admin of your workspace to install it there.',
    );
  }
}

/** OAuth mode: the request's workspace never installed Vigil (or uninstalled it). */
class NotInstalledError extends RefusalError {
  constructor(
    readonly requestTeam: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      'Vigil is not installed in your Slack workspace, so it cannot act for you here.',
      'An admin of your workspace can install it; each workspace uses its own installation and connection.',
    );
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

type Source = AuthorizeSourceData<boolean>;

/** The acting member's own team, where the payload tells it (interactions carry `user.team_id`). */
function memberTeamOf(body: unknown): string | undefined {
  const user = (body as { user?: unknown } | undefined)?.user;
  if (typeof user !== 'object' || user === null) return undefined;
  const team = (user as { team_id?: unknown }).team_id;
  return typeof team === 'string' && team !== '' ? team : undefined;
}

/** Whether a member of `memberTeam` (when known) belongs to the workspace or organization `ids` names. */
function memberBelongs(memberTeam: string | undefined, ids: ServedWorkspace): boolean {
  // Org-wide: members of any workspace of the organization act; `user.team_id` names their own workspace.
  if (ids.isEnterpriseInstall || memberTeam === undefined) return true;
  return memberTeam === ids.teamId || (ids.enterpriseId !== undefined && memberTeam === ids.enterpriseId);
}

/** Pure: whether the request (Bolt's source, and the member when known) belongs to `served`. */
function serves(served: ServedWorkspace, source: Source, memberTeam: string | undefined): boolean {
  if (served.isEnterpriseInstall) {
    return served.enterpriseId !== undefined && source.enterpriseId === served.enterpriseId;
  }
  if (source.teamId !== served.teamId) return false;
  if (served.enterpriseId !== undefined && source.enterpriseId !== undefined) {
    if (source.enterpriseId !== served.enterpriseId) return false;
  }
  return memberBelongs(memberTeam, served);
}

/** Single-workspace mode: the bot token's workspace, learnt once from auth.test, and only it. */
export class SingleWorkspaceGate {
  private served: Promise<ServedWorkspace & { botId?: string; botUserId?: string }> | undefined;

  constructor(
    private readonly client: WebClient,
    private readonly botToken: string,
  ) {}

  /** Checks the bot token (auth.test) before traffic is taken; start-up fails on a bad token. */
  async init(): Promise<ServedWorkspace> {
    return this.learn();
  }

  private learn(): Promise<ServedWorkspace & { botId?: string; botUserId?: string }> {
    this.served ??= this.client.auth.test({ token: this.botToken }).then((r) => ({
      teamId: r.team_id,
      enterpriseId: r.enterprise_id || undefined,
      isEnterpriseInstall: r.is_enterprise_install === true,
      ...(r.bot_id ? { botId: r.bot_id } : {}),
      ...(r.user_id ? { botUserId: r.user_id } : {}),
    }));
    // A failed auth.test is asked again on the next request rather than remembered.
    this.served.catch(() => {
      this.served = undefined;
    });
    return this.served;
  }

  readonly authorize: Authorize<boolean> = async (source, body) => {
    const served = await this.learn();
    if (!serves(served, source, memberTeamOf(body))) throw new ForeignWorkspaceError(requestTeamOf(source));
    const result: AuthorizeResult = { botToken: this.botToken };
    if (served.botId) result.botId = served.botId;
    if (served.botUserId) result.botUserId = served.botUserId;
    if (served.teamId) result.teamId = served.teamId;
    if (served.enterpriseId) result.enterpriseId = served.enterpriseId;
    return result;
  };
}

/** OAuth mode: the request's own installation, and a member of that workspace acting. */
export function installationAuthorize(authorize: InstallProvider['authorize']): Authorize<boolean> {
  return async (source, body) => {
    let result: AuthorizeResult;
    try {
      result = await authorize(source);
    } catch (err) {
      if (!isInstallationMissing(err)) throw err;
      throw new NotInstalledError(requestTeamOf(source), { cause: err });
    }
    const ids: ServedWorkspace = {
      teamId: source.teamId,
      enterpriseId: source.enterpriseId,
      isEnterpriseInstall: source.isEnterpriseInstall,
    };
    if (!memberBelongs(memberTeamOf(body), ids)) throw new ForeignWorkspaceError(memberTeamOf(body));
    return result;
  };
}

function requestTeamOf(source: Source): string | undefined {
  return source.isEnterpriseInstall ? source.enterpriseId : (source.teamId ?? source.enterpriseId);
}

/** @slack/oauth wraps the store's error; a missing installation is named, anything else is a failure. */
function isInstallationMissing(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; depth++) {
    if (e.name === 'InstallationNotFoundError') return true;
    e = (e as { original?: unknown }).original ?? e.cause;
  }
  return false;
}

/**
 * What a failed authorization should tell the person, or undefined for a failure to report: the gate's own
 * refusals, and the store being unavailable (OAuth mode reads installations from it). Bolt and @slack/oauth
 * each wrap the error (`original`).
 */
export function authorizationAnswer(error: unknown): unknown {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    if (answerFor(e)) return e;
    e = (e as { original?: unknown }).original ?? e.cause;
  }
  return answerFor(e) ? e : undefined;
}

/** Where a refused request's answer can go in the ack itself (the HTTP receiver; Socket Mode has none). */
export interface AckAnswers {
  answerWith(body: object, response: unknown): void;
}

/**
 * Tells the person why the gate refused their request, as an answer (no reference code) and one info line:
 * a command in the ack (else through its response_url), a view submission as an update of the modal, a
 * click or message shortcut through its response_url. Events (App Home) have nobody to tell.
 */
export async function answerGateRefusal(
  deps: { logger: Logger; outbound: Outbound },
  err: unknown,
  body: unknown,
  acks: AckAnswers | undefined,
): Promise<void> {
  const refusal = answerFor(err);
  if (!refusal) return;
  const b = (body ?? {}) as {
    type?: unknown;
    command?: unknown;
    response_url?: unknown;
    user?: { id?: unknown };
    user_id?: unknown;
  };
  const kind = typeof b.type === 'string' ? b.type : typeof b.command === 'string' ? 'command' : 'unknown';
  const team = (err as { requestTeam?: string }).requestTeam;
  await reportError(deps, err, undefined, {
    type: kind,
    team,
    user: typeof b.user_id === 'string' ? b.user_id : b.user?.id,
  });
  const message = refusalMessage(refusal);
  if (kind === 'view_submission') {
    acks?.answerWith(body as object, { response_action: 'update', view: refusalView(message) });
    return;
  }
  if (kind === 'command' && acks) {
    acks.answerWith(body as object, { response_type: 'ephemeral', ...message });
    return;
  }
  if (typeof b.response_url === 'string' && b.response_url !== '') {
    await postToResponseUrl(b.response_url, ephemeral(message, false), deps.outbound.dispatcher).catch(
      (err: unknown) => deps.logger.warn('could not tell a refused request why', { err }),
    );
  }
}
