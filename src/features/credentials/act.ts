/**
 * Remediate, Ignore and their reverses on a credential row, and Remediate all / Ignore all on a page. The
 * `act` permission is checked on every click (server-side, from the verified payload); the service calls the
 * API once however many clicks and records who did what; the page is redrawn in place with each row's state,
 * and the clicker is told what teammates had already done.
 */
import type { CredentialActionType } from '../../api/index.js';
import { parseContextRef } from '../../domain/contexts.js';
import { ExpiredError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { plural } from '../../slack/kit/kit.js';
import { listCodeSpan, userMention } from '../../slack/kit/text.js';
import type { Click } from '../../slack/listen.js';
import { clickTarget, replaceMessage } from '../../slack/respond.js';
import {
  CREDS_IGNORE,
  CREDS_IGNORE_PAGE,
  CREDS_REMEDIATE,
  CREDS_REMEDIATE_PAGE,
  CREDS_UNIGNORE,
  CREDS_UNREMEDIATE,
} from './blocks.js';
import type { CredentialsDeps } from './deps.js';
import { credsPage } from './page.js';
import type { CredentialActOutcome, CredentialTarget, CredsContext } from './service.js';

export const ROW_ACTIONS: Readonly<Record<string, CredentialActionType>> = {
  [CREDS_REMEDIATE]: 'remediate',
  [CREDS_UNREMEDIATE]: 'unremediate',
  [CREDS_IGNORE]: 'ignore',
  [CREDS_UNIGNORE]: 'unignore',
};
export const PAGE_ACTIONS: Readonly<Record<string, CredentialActionType>> = {
  [CREDS_REMEDIATE_PAGE]: 'remediate',
  [CREDS_IGNORE_PAGE]: 'ignore',
};

const DONE: Record<CredentialActionType, string> = {
  remediate: 'remediated',
  unremediate: 'unremediated',
  ignore: 'ignored',
  unignore: 'unignored',
};

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at a search Vigil knows.',
    'Run the search again with `/vigil creds …`.',
  );
}

const targetOf = (ctx: CredsContext, index: number): CredentialTarget | undefined => {
  const row = ctx.rows[index];
  return row?.credentialHash === undefined
    ? undefined
    : { id: row.id, identity: row.identity, hash: row.credentialHash };
};

/** What the clicker is told besides the redrawn page: teammates' earlier changes and ones under way. */
function notes(outcome: CredentialActOutcome, action: CredentialActionType): string[] {
  const out: string[] = [];
  for (const { target, mark } of outcome.before.slice(0, 5)) {
    const who = mark === undefined ? undefined : userMention(mark.by);
    out.push(
      who !== undefined && mark !== undefined
        ? `${who} had already ${DONE[mark.action]} ${listCodeSpan(target.identity, 100)} ${slackDate(mark.at)}, so Vigil did nothing more for it.`
        : `${listCodeSpan(target.identity, 100)} was already ${DONE[action]}, so Vigil did nothing more for it.`,
    );
  }
  if (outcome.busy.length > 0)
    out.push(
      `A teammate is changing ${plural(outcome.busy.length, 'row')} right now: look again in a moment.`,
    );
  return out;
}

export async function actOnCredentials(click: Click<CredentialsDeps>): Promise<void> {
  const { deps, who } = click;
  const ref = parseContextRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await deps.credentials.contexts.load(ref.ctxId, who.workspaceId);
  const rowAction = ROW_ACTIONS[click.action.action_id];
  const action = rowAction ?? PAGE_ACTIONS[click.action.action_id];
  if (action === undefined) throw gone();
  let targets: CredentialTarget[];
  if (rowAction !== undefined) {
    const target = ref.index === undefined ? undefined : targetOf(ctx, ref.index);
    if (target === undefined) throw gone();
    targets = [target];
  } else {
    targets = ctx.rows.flatMap((_, i) => targetOf(ctx, i) ?? []);
  }
  await deps.authz.requirePermission(click.client, who.workspaceId, who.teamId, who.userId, 'act');
  const outcome = await deps.credentials.actions.act({
    workspaceId: who.workspaceId,
    by: who.userId,
    action,
    targets,
    wholePage: rowAction === undefined,
  });
  const target = clickTarget(click.body.container, click.respond, click.client, ctx.message);
  await replaceMessage(
    target,
    await credsPage(deps, ctx, ref.ctxId, { inChannel: target.kind === 'channel' }),
  );
  const told = notes(outcome, action);
  if (told.length > 0) await click.respond(ephemeral({ text: told.join('\n') }, false));
}
