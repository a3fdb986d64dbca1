/**
 * `idp connect entra tenant:<id> client:<id>`, `idp connect okta org:<https://company.okta.com> [client:<id>]`,
 * `idp status`, `idp disconnect`: the identity provider containment acts on. With `client:`, Okta is reached as
 * that OAuth 2.0 service app (private_key_jwt), else with an API token. The secret (Entra's client secret,
 * Okta's API token or the service app's private key) is never typed here: `connect` opens a form for it.
 */
import { once, refuseSecretKey, singleValueOf, unknownKey } from '../../slack/grammar/args.js';
import { echo, fail } from '../../slack/grammar/errors.js';
import { type CommandOf, defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import type { Token } from '../../slack/grammar/tokenize.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    /** `idp connect …`: the secret itself comes through a form, never the command. */
    'idp-connect':
      | { kind: 'idp-connect'; provider: 'entra'; tenant: string; client: string }
      | { kind: 'idp-connect'; provider: 'okta'; org: string; client?: string };
    'idp-status': { kind: 'idp-status' };
    'idp-disconnect': { kind: 'idp-disconnect' };
  }
}

const ENTRA_EXAMPLE =
  '/vigil idp connect entra tenant:00000000-0000-0000-0000-000000000000 client:11111111-1111-1111-1111-111111111111';
const OKTA_EXAMPLE = '/vigil idp connect okta org:https://company.okta.com';
/** A directory (tenant) id or a verified domain, and an application (client) id: Entra's own shapes. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{3,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
/** An Okta app's client id (`0oa…`, 20 characters in Okta's orgs; any such token accepted). */
const OKTA_CLIENT = /^[A-Za-z0-9_-]{10,64}$/;

function parseIdp(tokens: readonly Token[]): CommandOf<'idp-status' | 'idp-disconnect' | 'idp-connect'> {
  const [verb, ...rest] = tokens;
  const word = verb?.key === undefined ? (verb?.value.toLowerCase() ?? '') : '';
  if (word === 'status' || word === 'disconnect') {
    if (rest.length > 0) fail(`\`idp ${word}\` takes nothing more.`, { example: `/vigil idp ${word}` });
    return { kind: word === 'status' ? 'idp-status' : 'idp-disconnect' };
  }
  if (word !== 'connect')
    fail('`idp` takes `connect`, `status` or `disconnect`.', { example: ENTRA_EXAMPLE });
  const [provider, ...args] = rest;
  const name = provider?.key === undefined ? (provider?.value.toLowerCase() ?? '') : '';
  if (name === 'entra') return parseEntra(args);
  if (name === 'okta') return parseOkta(args);
  return fail('`idp connect` takes `entra` or `okta`.', { example: ENTRA_EXAMPLE });
}

function parseEntra(tokens: readonly Token[]): CommandOf<'idp-connect'> {
  let tenant: string | undefined;
  let client: string | undefined;
  for (const token of tokens) {
    refuseSecretKey(token);
    if (token.key === 'tenant') {
      once(tenant, token, ENTRA_EXAMPLE);
      tenant = singleValueOf(token, ENTRA_EXAMPLE).trim();
      if (!GUID.test(tenant) && !DOMAIN.test(tenant))
        fail(`\`${echo(tenant)}\` is not a directory (tenant) id.`, { example: ENTRA_EXAMPLE });
    } else if (token.key === 'client') {
      once(client, token, ENTRA_EXAMPLE);
      client = singleValueOf(token, ENTRA_EXAMPLE).trim();
      if (!GUID.test(client))
        fail(`\`${echo(client)}\` is not an application (client) id.`, { example: ENTRA_EXAMPLE });
    } else if (token.key === undefined) {
      fail(`\`${echo(token.text)}\` is not part of \`idp connect entra\`.`, {
        hint: 'The client secret is never typed in a command: Vigil opens a form for it.',
        example: ENTRA_EXAMPLE,
      });
    } else unknownKey(token, 'idp', ['tenant', 'client']);
  }
  if (tenant === undefined || client === undefined)
    fail('`idp connect entra` needs `tenant:` and `client:`.', { example: ENTRA_EXAMPLE });
  return { kind: 'idp-connect', provider: 'entra', tenant, client };
}

function parseOkta(tokens: readonly Token[]): CommandOf<'idp-connect'> {
  let org: string | undefined;
  let client: string | undefined;
  for (const token of tokens) {
    refuseSecretKey(token);
    if (token.key === 'org') {
      once(org, token, OKTA_EXAMPLE);
      org = singleValueOf(token, OKTA_EXAMPLE).trim().replace(/\/+$/, '');
      const url = URL.canParse(org) ? new URL(org) : undefined;
      if (url?.pathname !== '/' || url.search !== '' || url.username !== '' || url.password !== '')
        fail(`\`${echo(org)}\` is not an Okta org URL.`, { example: OKTA_EXAMPLE });
      org = url.origin;
    } else if (token.key === 'client') {
      once(client, token, OKTA_EXAMPLE);
      client = singleValueOf(token, OKTA_EXAMPLE).trim();
      if (!OKTA_CLIENT.test(client))
        fail(`\`${echo(client)}\` is not an Okta client id.`, {
          example: `${OKTA_EXAMPLE} client:0oa1b2c3d4e5f6g7h8i9`,
        });
    } else if (token.key === undefined) {
      fail(`\`${echo(token.text)}\` is not part of \`idp connect okta\`.`, {
        hint: 'The API token is never typed in a command: Vigil opens a form for it.',
        example: OKTA_EXAMPLE,
      });
    } else unknownKey(token, 'idp', ['org', 'client']);
  }
  if (org === undefined) fail('`idp connect okta` needs `org:`.', { example: OKTA_EXAMPLE });
  return { kind: 'idp-connect', provider: 'okta', org, ...(client === undefined ? {} : { client }) };
}

const IDP_HELP: HelpEntry = {
  usage: `${COMMAND} idp connect entra tenant:<id> client:<id> | idp connect okta org:<url> [client:<id>] | idp status | idp disconnect`,
  summary: 'the identity provider containment acts on (Entra ID, Okta)',
  description:
    'Connects the workspace to Microsoft Entra ID (an app registration with application permissions) or Okta, for containing a leaked identity from its credential row: revoke sessions, mark compromised, disable. The client secret, API token or service app private key is entered in a form, never in a command; it is stored encrypted and never shown again. `status` names the provider, the permissions granted and tests the connection with a read-only call. See docs/containment.md.',
  adminOnly: true,
  examples: [
    ex(
      'idp connect entra tenant:contoso.onmicrosoft.com client:11111111-1111-1111-1111-111111111111',
      'Entra ID; a form asks for the client secret',
    ),
    ex('idp connect okta org:https://company.okta.com', 'Okta; a form asks for the API token'),
    ex(
      'idp connect okta org:https://company.okta.com client:0oa1b2c3d4e5f6g7h8i9',
      'Okta as an OAuth 2.0 service app; a form asks for its private key',
    ),
    ex('idp status', 'which provider, which permissions, and a test call'),
  ],
};

export const idpSubcommands = [
  defineSubcommand({
    name: 'idp',
    help: IDP_HELP,
    // Status says which provider and which permissions, no secret: what any holder of `contain` may see.
    access: { 'idp-status': 'contain', 'idp-connect': 'admin', 'idp-disconnect': 'admin' },
    parse: parseIdp,
  }),
];
