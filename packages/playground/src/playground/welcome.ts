/**
 * The playground's first message: what this page is, how to connect a real Slack app, and every command
 * with an example that works as typed against the simulated API's seeded data (identifier ids, an event
 * uid, a policy and a report taken from it). Its words are its own, not read from Vigil's grammar: the
 * playground drives Vigil from outside, as Slack does (examples.test.ts holds it to the grammar).
 */

import type { SimApi } from '../sim/api/index.js';

export interface WelcomeFacts {
  tenantName: string;
  identifier: { id: number; name: string };
  otherIdentifier: { id: number; name: string } | undefined;
  /** An event of the identifier that is open and high or critical, for the filtered example and explain. */
  eventUid: string | undefined;
  /** A matching policy of the tenant, for `assignments`. */
  policyUuid: string | undefined;
  /** A completed report request of the tenant, for `report`. */
  reportUuid: string | undefined;
  /** Another tenant the key may use, for `tenant`. */
  otherTenant: { id: number; name: string } | undefined;
  tenantId: number;
}

const SEVERE = new Set(['high', 'critical']);

export function welcomeFacts(sim: SimApi): WelcomeFacts {
  const key = sim.keys[0];
  const tenantId = key?.defaultTenantId ?? 0;
  const identifiers = sim.state.identifiersOf(tenantId);
  const pick =
    identifiers.find((i) =>
      sim.state
        .eventsOf(i.id)
        .some((e) => SEVERE.has(e.item.metadata.severity) && e.item.tenant_metadata.ignored_at === null),
    ) ?? identifiers[0];
  const events = pick ? sim.state.eventsOf(pick.id).filter((e) => e.tenantId === tenantId) : [];
  const severe = events.find((e) => SEVERE.has(e.item.metadata.severity));
  const other = identifiers.find((i) => i.id !== pick?.id);
  const otherTenantId = key?.tenantIds.find((id) => id !== tenantId);
  const otherTenant = sim.state.tenants.find((t) => t.id === otherTenantId);
  return {
    tenantName: sim.state.tenants.find((t) => t.id === tenantId)?.name ?? 'the default tenant',
    tenantId,
    identifier: { id: pick?.id ?? 3001, name: pick?.name ?? 'acme.example' },
    otherIdentifier: other ? { id: other.id, name: other.name } : undefined,
    eventUid: severe?.item.metadata.uid,
    policyUuid: sim.state.policies.find((p) => p.tenantId === tenantId)?.uuid,
    reportUuid: sim.state.reportRequests.find((r) => r.tenantId === tenantId && r.status === 'completed')
      ?.uuid,
    otherTenant: otherTenant ? { id: otherTenant.id, name: otherTenant.name } : undefined,
  };
}

/** @internal */
export interface Example {
  /** The subcommand it shows. */
  topic: string;
  /** As typed in the composer, without `/vigil `. */
  command: string;
  does: string;
}

interface ExampleGroup {
  title: string;
  examples: Example[];
}

type MakeExample = (topic: string, command: string, does: string) => Example;

/** The searches: the group a newcomer spends most time in, from the seeded tenant's own identifiers. */
function eventExamples(f: WelcomeFacts, ex: MakeExample): Example[] {
  const id = f.identifier.id;
  return [
    ex('events', `events ${id} severity:high since:90d`, `high and critical events of ${f.identifier.name}`),
    ...(f.otherIdentifier
      ? [ex('events', `events ${f.otherIdentifier.id}`, `events of ${f.otherIdentifier.name}`)]
      : []),
    ex('events', `events ${f.identifier.name} since:30d`, 'an identifier by its name'),
    ex('events', 'events all severity:critical', "every identifier's events (the tenant feed)"),
    ex('identifiers', 'identifiers acme', 'find identifiers by name, with their ids'),
    ex('events', `events ${id} secret`, 'a private form to search by a secret'),
    ...(f.eventUid ? [ex('explain', `explain ${f.eventUid}`, 'AI assistance for one event')] : []),
    ex(
      'report',
      f.reportUuid ? `report ${f.reportUuid}` : 'help report',
      'status and content of a report request',
    ),
    ex(
      'intel',
      'intel "who is selling access to acme.example?" since:30d',
      'ask Threat Flow for a report; it is posted in your DM when ready',
    ),
    ex('upload', 'upload', 'send a file to the sandbox (pick any file)'),
  ];
}

/** Every subcommand, grouped as a newcomer would try them; the workspace-changing ones last. */
function exampleGroups(f: WelcomeFacts): ExampleGroup[] {
  const ex: MakeExample = (topic, command, does) => ({ topic, command, does });
  return [
    {
      title: 'Start here',
      examples: [
        ex('help', 'help', 'every command, with examples'),
        ex('status', 'status', 'connection health: tenant, key id, scopes, quota'),
      ],
    },
    { title: 'Events', examples: eventExamples(f, ex) },
    {
      title: 'Leaked credentials',
      examples: [
        ex(
          'creds',
          'creds domain acme.example',
          'leaked credentials of a domain, masked; Export CSV sends a file to your DM',
        ),
      ],
    },
    {
      title: 'Policies and recommendations',
      examples: [
        ex('policies', 'policies', 'matching policies'),
        ex(
          'assignments',
          f.policyUuid ? `assignments ${f.policyUuid}` : 'help assignments',
          'identifiers assigned to a policy, with Unassign',
        ),
        ex('recommendations', 'recommendations', 'identifier recommendations'),
      ],
    },
    {
      title: 'Daily digests',
      examples: [
        ex(
          'digest',
          'digest add always',
          'a digest of this channel every day at 09:00 (then Run digests now)',
        ),
        ex('digest', 'digest add', 'the same with a form: pick #random to see a refusal'),
        ex('digest', 'digest list', "the workspace's digests"),
      ],
    },
    {
      title: 'Real-time alerts',
      examples: [
        ex('alerts', 'alerts add severity:high', 'new high and critical events posted here within a minute'),
        ex('alerts', 'alerts list', "the workspace's alerts, and how often they poll"),
        ex('snooze', 'snooze identifier 3001 1d', 'quiet one identifier in alerts and digests for a day'),
        ex('snoozes', 'snoozes', 'what is snoozed, with End'),
      ],
    },
    {
      title: 'Workspace (you are an admin)',
      examples: [
        ex('settings', 'settings', 'who may search, subscribe, act on events, see credentials and more'),
        ex('audit', 'audit', 'recent actions taken through Vigil'),
        ex('idp', 'idp status', 'the identity provider containment acts on (a simulated Entra ID here)'),
        ex('tenants', 'tenants', "the organization's tenants"),
        ...(f.otherTenant
          ? [
              ex(
                'tenant',
                `tenant ${f.otherTenant.id}`,
                `switch to ${f.otherTenant.name} (\`/vigil tenant ${f.tenantId}\` switches back)`,
              ),
            ]
          : []),
        ex('connect', 'connect', 'the one-time link to the connect page (it takes a simulated key)'),
        ex('disconnect', 'disconnect', 'forget the key (asks first)'),
      ],
    },
  ];
}

/** Every example, in the order shown. @internal */
export function exampleCommands(f: WelcomeFacts): Example[] {
  return exampleGroups(f).flatMap((g) => g.examples);
}

/** The welcome message's Block Kit, rendered like any other message. */
export function welcomeMessage(f: WelcomeFacts): { text: string; blocks: unknown[] } {
  const groups = exampleGroups(f).map((g) => ({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: `*${g.title}*\n${g.examples.map((e) => `• \`/vigil ${e.command}\` — ${e.does}`).join('\n')}`,
    },
  }));
  return {
    text: 'This is the Vigil playground: a simulated Slack and a simulated threat-intel API.',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Welcome to the Vigil playground' } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            'This is a *playground*: Vigil runs for real, but Slack and the threat-intel API are simulated on this ' +
            `machine. The workspace is connected to the simulated tenant *${f.tenantName}*, and you are ` +
            '@adam, a workspace admin. Everything you do here goes through the same signed requests Slack would send. ' +
            'Vigil is a member of #general and #security, not of #random; your DM with Vigil is under Apps.',
        },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: 'Every command, with an example that works here: click one to put it in the composer.',
          },
        ],
      },
      ...groups,
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            '*Links to events*\nPaste the portal link of an event Vigil showed you (its *Open in portal* link) in ' +
            '#general and send it: it unfurls to the event’s card. Click the card for your side panel.',
        },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text:
              'To connect a real Slack app, create it from `manifest.yml` and start Vigil with `SLACK_BOT_TOKEN` and ' +
              '`SLACK_SIGNING_SECRET` (or `SLACK_APP_TOKEN`) set: see the README, "Create the Slack app".',
          },
        ],
      },
    ],
  };
}
