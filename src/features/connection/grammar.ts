/** The grammar of `connect`, `disconnect`, `status`, `tenants` and `tenant <id>`. */
import { onlyArgument, withoutArguments } from '../../slack/grammar/args.js';
import { EXAMPLE } from '../../slack/grammar/examples.js';
import { defineSubcommand, type HelpEntry } from '../../slack/grammar/index.js';
import { COMMAND, ex } from '../../slack/grammar/key-examples.js';
import * as v from '../../slack/grammar/values.js';

declare module '../../slack/grammar/command.js' {
  interface Commands {
    connect: { kind: 'connect' };
    disconnect: { kind: 'disconnect' };
    status: { kind: 'status' };
    tenants: { kind: 'tenants' };
    tenant: { kind: 'tenant'; tenantId: number };
  }
}

const CONNECT_HELP: HelpEntry = {
  usage: `${COMMAND} connect`,
  summary: 'link this workspace to an API key and tenant',
  description:
    'Sends you a private, single-use link to a Vigil page where you paste the API key. Never paste a key in Slack.',
  adminOnly: true,
  examples: [ex('connect', 'get the one-time link')],
};

const DISCONNECT_HELP: HelpEntry = {
  usage: `${COMMAND} disconnect`,
  summary: 'remove the API key from this workspace',
  description: 'Deletes the stored API key. Digests and alerts stop until someone connects again.',
  adminOnly: true,
  examples: [ex('disconnect', 'forget the key')],
};

const STATUS_HELP: HelpEntry = {
  usage: `${COMMAND} status`,
  summary: 'connection health: tenant, key id, scopes, quota',
  description:
    'Shows the tenant, organization, key id, scopes, region, search quota left and the last error. Never the key.',
  examples: [ex('status', 'check the connection')],
};

const TENANTS_HELP: HelpEntry = {
  usage: `${COMMAND} tenants`,
  summary: "list the organization's tenants",
  description: 'Lists the tenants of the connected organization, with their ids, a page at a time.',
  examples: [ex('tenants', 'list tenants')],
};

const TENANT_HELP: HelpEntry = {
  usage: `${COMMAND} tenant <tenant-id>`,
  summary: "switch the workspace's tenant",
  description: 'Switches the tenant this workspace works in. Find ids with `/vigil tenants`.',
  adminOnly: true,
  examples: [ex(`tenant ${EXAMPLE.tenant}`, `switch to tenant ${EXAMPLE.tenant}`)],
};

export const connectionSubcommands = [
  defineSubcommand({
    name: 'connect',
    help: CONNECT_HELP,
    access: { connect: 'admin' },
    parse: withoutArguments('connect'),
  }),
  defineSubcommand({
    name: 'disconnect',
    help: DISCONNECT_HELP,
    access: { disconnect: 'admin' },
    parse: withoutArguments('disconnect'),
  }),
  defineSubcommand({
    name: 'status',
    inMessages: ['status'],
    help: STATUS_HELP,
    access: { status: 'member' },
    parse: withoutArguments('status'),
  }),
  defineSubcommand({
    name: 'tenants',
    inMessages: ['tenants'],
    help: TENANTS_HELP,
    access: { tenants: 'use' },
    parse: withoutArguments('tenants'),
  }),
  defineSubcommand({
    name: 'tenant',
    help: TENANT_HELP,
    // Switching the tenant changes what the whole workspace sees.
    access: { tenant: 'admin' },
    parse: (args) => ({
      kind: 'tenant',
      tenantId: v.positiveInt(
        onlyArgument(args, 'tenant', 'a tenant id (see `/vigil tenants`)').value,
        'The tenant id',
      ),
    }),
  }),
];
