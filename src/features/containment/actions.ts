/**
 * The buttons: *Contain…* on a leaked credential opens the card of its directory user; an action button asks
 * (or, with approval off, runs); *Approve* and *Reject* decide in the channel; then *Mark remediated in Flare*
 * and *Re-enable account*. Who clicked comes from the verified payload and is checked against `contain` before
 * anything reaches the provider; a button value only names a credential row or a request.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { CONTAIN_OPEN_PANEL } from '../../domain/contain-entry.js';
import { ExpiredError, RefusalError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import { ephemeralPoster } from '../../slack/respond.js';
import {
  CONTAIN_ACT,
  CONTAIN_APPROVE,
  CONTAIN_OPEN,
  CONTAIN_REENABLE,
  CONTAIN_REJECT,
  CONTAIN_REMEDIATE,
  renderApprovalAsk,
  renderCard,
  renderDecision,
  renderStillOpen,
  withVerdicts,
} from './blocks.js';
import type { ContainmentDeps } from './deps.js';
import { ACTION_WORDS, type ContainAction } from './provider.js';
import type { ContainRequest, Decision, NewRequest } from './requests.js';

type ContainClick = Click<ContainmentDeps>;

const gone = () =>
  new ExpiredError('This button no longer points at a credential Vigil knows.', 'Run the search again.');

async function leakOf(click: ContainClick, ref: string) {
  const leak = await click.deps.leaks.find(click.who.workspaceId, ref);
  if (leak === undefined) throw gone();
  return leak;
}

/** The directory user the leaked identity a *Contain…* value names maps to, with the actions. */
async function cardOf(click: ContainClick) {
  const ref = click.action.value ?? '';
  const leak = await leakOf(click, ref);
  const { deps, who } = click;
  const [{ provider, match }, approval, verdicts] = await Promise.all([
    deps.containment.look(who.workspaceId, leak.identity),
    deps.containment.approvalOn(who.workspaceId),
    deps.leaks.verdicts(who.workspaceId, leak.identity),
  ]);
  const card = renderCard({
    identity: leak.identity,
    provider,
    match,
    approval,
    value: (id) => `${ref}|${id}`,
  });
  return withVerdicts(card, verdicts);
}

/** *Contain…*: the card, for the clicker alone. */
async function open(click: ContainClick): Promise<void> {
  await click.respond(ephemeral(await cardOf(click), false));
}

/**
 * *Contain…* in a Work Object's side panel: a panel has no response_url, so the card goes to the viewer alone
 * in the channel the card was opened from (its buttons then ask there), or their DM with Vigil.
 */
async function openFromPanel(click: ContainClick): Promise<void> {
  const c = click.body.container as { channel_id?: unknown };
  const channel = typeof c.channel_id === 'string' ? c.channel_id : '';
  const card = await cardOf(click);
  await ephemeralPoster(click.client, channel, click.who.userId)(card);
}

/** Where the ask goes: the thread of the message clicked in a channel, or a new message beside an ephemeral one. */
function threadOf(body: BlockAction<ButtonAction>): string | undefined {
  const c = body.container as { is_ephemeral?: boolean; message_ts?: string; thread_ts?: string };
  return c.is_ephemeral === true ? undefined : (c.thread_ts ?? c.message_ts);
}

/** An action button: the user is looked up again, and must still be the one shown (never a guess). */
async function act(click: ContainClick, action: ContainAction): Promise<void> {
  const [ref = '', shownId = ''] = (click.action.value ?? '').split('|');
  const leak = await leakOf(click, ref);
  const { deps, who } = click;
  const { provider, match } = await deps.containment.look(who.workspaceId, leak.identity);
  if (match.kind !== 'one' || match.user.id !== shownId)
    throw new RefusalError(
      'The directory no longer has exactly the user this card showed, so Vigil did nothing.',
      'Click *Contain…* on the credential again to see who it maps to now.',
    );
  await ask(
    click,
    {
      action,
      provider: provider.kind,
      userId: match.user.id,
      person: match.user.displayName,
      principal: match.user.principal,
      identity: leak.identity,
      ...(leak.credential ? { credential: leak.credential } : {}),
      ...(leak.event ? { event: leak.event } : {}),
      requestedBy: who.userId,
      channelId: who.channelId,
    },
    threadOf(click.body),
  );
}

/** Records the request, then asks a second approver in the channel, or runs it at once when approval is off. */
async function ask(click: ContainClick, req: NewRequest, threadTs: string | undefined): Promise<void> {
  const { deps, who, client } = click;
  const approval = await deps.containment.approvalOn(who.workspaceId);
  const request = await deps.containment.requests.create(who.workspaceId, req);
  if (!approval) {
    const provider = await deps.containment.provider(who.workspaceId);
    const decision = await deps.containment.requests.run(who.workspaceId, request.id, who.userId, provider, {
      selfRun: true,
    });
    await click.respond(ephemeral(decisionMessage(decision), false));
    return;
  }
  const posted = await client.chat.postMessage({
    channel: who.channelId,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    ...renderApprovalAsk(request),
  });
  if (posted.ts)
    await deps.containment.requests.placed(who.workspaceId, request.id, who.channelId, posted.ts);
  const words = ACTION_WORDS[req.action].button;
  await click.respond(
    ephemeral(
      {
        text: `Asked in the channel: ${words} for ${req.principal} runs once another holder of \`contain\` approves.`,
      },
      false,
    ),
  );
}

function decisionMessage(d: Decision) {
  return d.kind === 'retry'
    ? renderStillOpen(d.request, `${d.error.message} ${d.error.hint}`)
    : renderDecision(d.request, { remediable: true });
}

async function approve(click: ContainClick): Promise<void> {
  const { deps, who } = click;
  const id = click.action.value ?? '';
  const provider = await deps.containment.connections.provider(who.workspaceId);
  const decision = await deps.containment.requests.run(who.workspaceId, id, who.userId, provider, {
    selfRun: false,
  });
  await click.respond({ replace_original: true, ...decisionMessage(decision) });
  if (decision.kind === 'retry')
    await click.respond(ephemeral({ text: `${decision.error.message} ${decision.error.hint}` }, false));
}

async function reject(click: ContainClick): Promise<void> {
  const decision = await click.deps.containment.requests.reject(
    click.who.workspaceId,
    click.action.value ?? '',
    click.who.userId,
  );
  await click.respond({ replace_original: true, ...decisionMessage(decision) });
}

/** *Mark remediated in Flare*, once, after a successful revoke or disable: the credential, else the event. */
async function remediate(click: ContainClick): Promise<void> {
  const { deps, who } = click;
  const r: ContainRequest = await deps.containment.requests.get(who.workspaceId, click.action.value ?? '');
  if (r.state !== 'done' || (r.credential === undefined && r.event === undefined)) throw gone();
  // Claimed on the request first (a compare-and-set), so double clicks and instances mark it once.
  if (
    r.remediatedBy === undefined &&
    (await deps.containment.requests.noteRemediated(who.workspaceId, r.id, who.userId))
  ) {
    try {
      await deps.leaks.remediate(who.workspaceId, who.userId, {
        identity: r.identity,
        ...(r.credential ? { credential: r.credential } : r.event ? { event: r.event } : {}),
      });
    } catch (err) {
      await deps.containment.requests.clearRemediated(who.workspaceId, r.id, who.userId);
      throw err;
    }
  }
  const now = await deps.containment.requests.get(who.workspaceId, r.id);
  await click.respond({ replace_original: true, ...renderDecision(now, { remediable: true }) });
}

/** *Re-enable account* after a disable: a request of its own, approved like any other. */
async function reenable(click: ContainClick): Promise<void> {
  const { deps, who } = click;
  const r = await deps.containment.requests.get(who.workspaceId, click.action.value ?? '');
  if (r.state !== 'done' || r.action !== 'disable') throw gone();
  const {
    id: _,
    at: _at,
    expiresAt: _e,
    state: _s,
    decidedBy: _d,
    outcome: _o,
    remediatedBy: _r,
    messageTs,
    ...same
  } = r;
  await ask(
    click,
    { ...same, action: 'enable', requestedBy: who.userId, channelId: who.channelId },
    messageTs ?? threadOf(click.body),
  );
}

export function registerContainButtons(app: App, deps: ContainmentDeps): void {
  const access = { access: 'contain' as const };
  onAction(app, deps, CONTAIN_OPEN, open, access);
  // A refusal in the panel is told in the viewer's DM with Vigil: the panel has nowhere else to answer.
  onAction(app, deps, CONTAIN_OPEN_PANEL, openFromPanel, { ...access, inDm: true, quiet: true });
  for (const [action, actionId] of Object.entries(CONTAIN_ACT) as [ContainAction, string][])
    onAction(app, deps, actionId, (click) => act(click, action), access);
  onAction(app, deps, CONTAIN_APPROVE, approve, access);
  onAction(app, deps, CONTAIN_REJECT, reject, access);
  onAction(app, deps, CONTAIN_REENABLE, reenable, access);
  // Marking the leak remediated in Flare is acting on it: the `act` permission, as on the credential row.
  onAction(app, deps, CONTAIN_REMEDIATE, remediate, { access: 'act' });
}
