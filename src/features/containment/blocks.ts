/**
 * Containment in Slack, pure: the card of a leaked identity's directory user (state, and a button per action
 * with a confirmation naming the person), the approval asked in the channel, the decision, `idp status`, and
 * the form that takes the secret. Every text from the provider or the leak is escaped.
 */
import type { Button, KnownBlock, View } from '@slack/types';

export { CONTAIN_OPEN } from '../../domain/contain-entry.js';

import { privateMetadata, viewButton, viewTitle } from '../../slack/kit/budget.js';
import { slackDate } from '../../slack/kit/dates.js';
import { button, confirmDialog, context, type RenderedMessage, section } from '../../slack/kit/kit.js';
import { escapeMrkdwn, listCodeSpan, ownMrkdwn, plainText, userMention } from '../../slack/kit/text.js';
import type { IdpConnectionView } from './connection.js';
import {
  ACTION_WORDS,
  type ConnectionCheck,
  type ContainAction,
  type DirectoryMatch,
  type DirectoryUser,
} from './provider.js';
import type { ContainRequest } from './requests.js';

export const CONTAIN_ACT: Readonly<Record<ContainAction, string>> = {
  revoke: 'contain_revoke',
  compromised: 'contain_compromised',
  disable: 'contain_disable',
  enable: 'contain_enable',
  'expire-password': 'contain_expire_password',
};
export const CONTAIN_APPROVE = 'contain_approve';
export const CONTAIN_REJECT = 'contain_reject';
export const CONTAIN_REMEDIATE = 'contain_remediate';
export const CONTAIN_REENABLE = 'contain_reenable';
export const IDP_CONNECT_CALLBACK = 'idp_connect';

const PROVIDER_NAMES = { entra: 'Microsoft Entra ID', okta: 'Okta' } as const;
const who = (userId: string | undefined) => (userId && userMention(userId)) || 'a teammate';
const person = (u: Pick<DirectoryUser, 'displayName' | 'principal'>) =>
  `*${escapeMrkdwn(u.displayName)}* (${escapeMrkdwn(u.principal)})`;

function stateLine(u: DirectoryUser): string {
  const enabled = u.enabled === undefined ? 'state unknown' : u.enabled ? 'enabled' : '*disabled*';
  const at = u.lastSignIn === undefined ? undefined : Date.parse(u.lastSignIn);
  const signIn =
    at === undefined || Number.isNaN(at) ? 'last sign-in unknown' : `last sign-in ${slackDate(at)}`;
  const risk = u.risk === undefined ? 'risk unknown' : `risk ${escapeMrkdwn(u.risk)}`;
  return `Account ${enabled} · ${signIn} · ${risk}`;
}

/** The button for `action` on `u`, its confirmation naming the person and what follows. */
function actionButton(action: ContainAction, u: DirectoryUser, value: string, approval: boolean): Button {
  const words = ACTION_WORDS[action];
  const follow = approval ? ' A second holder of `contain` must approve it in the channel.' : '';
  return button(words.button, CONTAIN_ACT[action], value, {
    ...(action === 'enable' ? {} : { style: 'danger' as const }),
    confirm: confirmDialog({
      title: plainText(`${words.button}?`, 100),
      text: plainText(
        `Vigil will ask the identity provider to ${words.verb} ${u.displayName} (${u.principal}).${follow}`,
        300,
      ),
      yes: words.button,
      danger: action !== 'enable',
    }),
  });
}

/** The directory user a leaked identity maps to, or why there is none to act on. */
export function renderCard(p: {
  identity: string;
  provider: { kind: 'entra' | 'okta'; actions: readonly ContainAction[] };
  match: DirectoryMatch;
  approval: boolean;
  /** What the action buttons carry: the credential ref and the user id shown. */
  value: (userId: string) => string;
}): RenderedMessage {
  const name = PROVIDER_NAMES[p.provider.kind];
  const leaked = listCodeSpan(p.identity);
  if (p.match.kind === 'none')
    return {
      text: `No ${name} user matches ${p.identity}`,
      blocks: [
        section(
          `No ${name} user has the e-mail or sign-in name ${leaked}, so there is nothing to contain there.`,
        ),
        context(
          'Vigil matches the leaked identity exactly (mail or user principal name) and never acts on a guess.',
        ),
      ],
    };
  if (p.match.kind === 'many')
    return {
      text: `${p.match.count} ${name} users match ${p.identity}`,
      blocks: [
        section(
          `${p.match.count} ${name} users have the e-mail or sign-in name ${leaked}. Vigil acts only on exactly one, never on a guess.`,
        ),
        context('Contain the account in the admin center, or make the address unique.'),
      ],
    };
  const u = p.match.user;
  const actions = p.provider.actions.filter((a) => (u.enabled === false ? a !== 'disable' : a !== 'enable'));
  const blocks: KnownBlock[] = [
    section(`${name}: ${person(u)}, for the leaked identity ${leaked}`, 'contain:user'),
    context(stateLine(u), 'contain:state'),
    {
      type: 'actions',
      block_id: 'contain:act',
      elements: actions.map((a) => actionButton(a, u, p.value(u.id), p.approval)),
    },
  ];
  if (u.notes.length > 0) blocks.push(context(ownMrkdwn(u.notes.join(' ')), 'contain:notes'));
  return { text: `${name}: ${u.displayName} (${u.principal})`, blocks };
}

/** One of Flare's Identity Exposure Management verdicts on a leaked credential, and when Flare made it. */
export interface Verdict {
  type: 'valid_credential' | 'invalid_credential' | 'mitigated_credential';
  at: string;
}

const VERDICT_WORDS: Record<Verdict['type'], string> = {
  valid_credential: ':rotating_light: *valid* (the password works)',
  invalid_credential: 'invalid (the password no longer works)',
  mitigated_credential: 'mitigated',
};

/**
 * Flare's verdicts on the card, where the API has any (Identity Exposure Management:
 * https://docs.flare.io/identity-exposure-management); the newest of each type, newest first.
 */
export function withVerdicts(
  card: RenderedMessage,
  verdicts: readonly Verdict[] | undefined,
): RenderedMessage {
  if (verdicts !== undefined && verdicts.length === 0) return card;
  const newest = new Map<Verdict['type'], Verdict>();
  for (const v of verdicts ?? []) if (!newest.has(v.type)) newest.set(v.type, v);
  const said = [...newest.values()].map((v) => {
    const at = Date.parse(v.at);
    return `${VERDICT_WORDS[v.type]}${Number.isNaN(at) ? '' : ` ${slackDate(at)}`}`;
  });
  const line =
    verdicts === undefined
      ? "Flare's verdicts on this credential could not be read just now."
      : `Flare's verdict: ${said.join(' · ')}`;
  return { ...card, blocks: [...card.blocks, context(line, 'contain:verdicts')] };
}

function requestLine(r: ContainRequest): string {
  return `${ACTION_WORDS[r.action].verb} ${person({ displayName: r.person, principal: r.principal })} in ${PROVIDER_NAMES[r.provider]}`;
}

/** Asked in the channel: who asks what for whom, and until when; Approve runs it. */
export function renderApprovalAsk(r: ContainRequest): RenderedMessage {
  return {
    text: `Containment asked: ${ACTION_WORDS[r.action].button} for ${r.principal}`,
    blocks: [
      section(`${who(r.requestedBy)} asks to ${requestLine(r)}.`, 'contain:ask'),
      context(
        `Another holder of \`contain\` approves; the requester cannot. Expires ${slackDate(r.expiresAt)}.`,
        'contain:ask-note',
      ),
      {
        type: 'actions',
        block_id: 'contain:decide',
        elements: [
          button('Approve', CONTAIN_APPROVE, r.id, {
            style: 'primary',
            confirm: confirmDialog({
              title: 'Approve this containment?',
              text: plainText(
                `${ACTION_WORDS[r.action].button}: ${r.person} (${r.principal}). It runs at once.`,
                300,
              ),
              yes: 'Approve',
            }),
          }),
          button('Reject', CONTAIN_REJECT, r.id),
        ],
      },
    ],
  };
}

const CLOSED_WORDS: Record<ContainRequest['state'], string> = {
  pending: 'is waiting for approval',
  done: 'was done',
  refused: 'was refused by the identity provider',
  rejected: 'was rejected',
  expired: 'expired without approval; ask again from the credential if it is still needed',
};

/** The request as it now stands, with what may follow (remediate in Flare, re-enable). */
export function renderDecision(r: ContainRequest, opts: { remediable: boolean }): RenderedMessage {
  const by = r.decidedBy === undefined ? '' : ` by ${who(r.decidedBy)}`;
  const head = `${who(r.requestedBy)} asked to ${requestLine(r)}: this ${CLOSED_WORDS[r.state]}${r.state === 'expired' ? '' : by}.`;
  const blocks: KnownBlock[] = [section(head, 'contain:decision')];
  if (r.outcome !== undefined && r.state === 'refused')
    blocks.push(context(ownMrkdwn(r.outcome), 'contain:outcome'));
  const next: Button[] = [];
  const contained = r.state === 'done' && (r.action === 'revoke' || r.action === 'disable');
  // The credential row's leak is marked remediated; from an alert, a stealer log or a panel, the event.
  const what = r.credential !== undefined ? 'Credential' : r.event !== undefined ? 'Event' : undefined;
  if (contained && what !== undefined && opts.remediable && r.remediatedBy === undefined)
    next.push(
      button(
        what === 'Event' ? 'Mark event remediated in Flare' : 'Mark remediated in Flare',
        CONTAIN_REMEDIATE,
        r.id,
        {
          style: 'primary',
        },
      ),
    );
  if (r.remediatedBy !== undefined)
    blocks.push(
      context(
        `${what ?? 'Credential'} marked remediated in Flare by ${who(r.remediatedBy)}.`,
        'contain:remediated',
      ),
    );
  if (r.state === 'done' && r.action === 'disable')
    next.push(
      button('Re-enable account', CONTAIN_REENABLE, r.id, {
        confirm: confirmDialog({
          title: 'Re-enable this account?',
          text: plainText(`${r.person} (${r.principal}) can sign in again once it runs.`, 300),
          yes: 'Re-enable',
        }),
      }),
    );
  if (next.length > 0) blocks.push({ type: 'actions', block_id: 'contain:next', elements: next });
  return { text: `Containment ${CLOSED_WORDS[r.state]}: ${r.principal}`, blocks };
}

/** A retry is possible: the provider was down or throttling; the request is still open. */
export function renderStillOpen(r: ContainRequest, problem: string): RenderedMessage {
  const ask = renderApprovalAsk(r);
  return {
    text: ask.text,
    blocks: [...ask.blocks, context(`:warning: ${escapeMrkdwn(problem)}`, 'contain:retry')],
  };
}

export function renderIdpStatus(p: {
  connection: IdpConnectionView | undefined;
  check?: ConnectionCheck;
  problem?: string;
  approval: boolean;
}): RenderedMessage {
  const approval = `Second approver: ${p.approval ? 'on' : 'off'} (\`/vigil settings contain-approval on|off\`).`;
  const c = p.connection;
  if (c === undefined)
    return {
      text: 'No identity provider is connected.',
      blocks: [
        section('No identity provider is connected, so containment is off.'),
        context(
          `An admin connects one with \`/vigil idp connect entra tenant:<id> client:<id>\` or \`/vigil idp connect okta org:<url>\`. ${approval}`,
        ),
      ],
    };
  const which =
    c.provider === 'entra'
      ? `Microsoft Entra ID, tenant \`${escapeMrkdwn(c.tenant)}\`, application \`${escapeMrkdwn(c.clientId)}\``
      : `Okta, org ${escapeMrkdwn(c.org)}, ${oktaAuthWords(c.clientId)}`;
  const lines = [`*Identity provider:* ${which}, connected by ${who(c.connectedBy)} ${slackDate(c.at)}.`];
  if (p.check) {
    lines.push(
      `*Permissions granted:* ${p.check.granted.length > 0 ? p.check.granted.map((g) => listCodeSpan(g)).join(', ') : '_none_'}`,
    );
    if (p.check.missing.length > 0)
      lines.push(`*Missing:* ${p.check.missing.map((m) => listCodeSpan(m)).join('; ')}`);
    lines.push(`:white_check_mark: ${escapeMrkdwn(p.check.test)}`);
  }
  if (p.problem !== undefined) lines.push(`:x: ${ownMrkdwn(p.problem)}`);
  return { text: `Identity provider: ${c.provider}`, blocks: [section(lines.join('\n')), context(approval)] };
}

const oktaAuthWords = (clientId: string | undefined) =>
  clientId === undefined ? 'API token' : `OAuth 2.0 service app \`${escapeMrkdwn(clientId)}\``;

/** One line for App Home (mrkdwn, escaped); undefined when no provider is connected. */
export function idpHomeLine(c: IdpConnectionView | undefined): string | undefined {
  if (c === undefined) return undefined;
  const which =
    c.provider === 'entra'
      ? `Microsoft Entra ID (tenant \`${escapeMrkdwn(c.tenant)}\`)`
      : `Okta (${escapeMrkdwn(c.org)}, ${oktaAuthWords(c.clientId)})`;
  const granted =
    c.granted === undefined
      ? 'permissions not recorded'
      : c.granted.length === 0
        ? 'no permissions granted'
        : `permissions granted: ${c.granted.map((g) => listCodeSpan(g)).join(', ')}`;
  return `:closed_lock_with_key: *Identity provider:* ${which}, ${granted} (\`/vigil idp status\` checks it now).`;
}

export interface ConnectForm {
  provider: 'entra' | 'okta';
  tenant?: string;
  clientId?: string;
  org?: string;
  channelId: string;
}

/** The form that takes the client secret, API token or private key: the one way it reaches Vigil. */
export function connectView(form: ConnectForm): View {
  const entra = form.provider === 'entra';
  const serviceApp = !entra && form.clientId !== undefined;
  const intro = entra
    ? `Tenant \`${escapeMrkdwn(form.tenant ?? '')}\`, application \`${escapeMrkdwn(form.clientId ?? '')}\`. Vigil signs in with the client credentials flow and checks the permissions granted.`
    : serviceApp
      ? `Org ${escapeMrkdwn(form.org ?? '')}, service app \`${escapeMrkdwn(form.clientId ?? '')}\`. Vigil signs its token requests with this key (private_key_jwt), asks for okta.users.read and okta.users.manage, and checks them with a read-only call.`
      : `Org ${escapeMrkdwn(form.org ?? '')}. Vigil checks the token with a read-only call.`;
  return {
    type: 'modal',
    callback_id: IDP_CONNECT_CALLBACK,
    private_metadata: privateMetadata(JSON.stringify(form)),
    title: viewTitle(entra ? 'Connect Entra ID' : 'Connect Okta'),
    submit: viewButton('Connect'),
    close: viewButton('Cancel'),
    clear_on_close: true,
    blocks: [
      section(intro),
      {
        type: 'input',
        block_id: 'secret',
        label: {
          type: 'plain_text',
          text: entra ? 'Client secret' : serviceApp ? 'Private key (JWK or PEM)' : 'API token',
        },
        hint: { type: 'plain_text', text: 'Stored encrypted, never shown again, in Slack or anywhere.' },
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          ...(serviceApp ? { multiline: true, max_length: 3000 } : { max_length: 1000 }),
        },
      },
    ],
  };
}
