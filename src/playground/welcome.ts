/**
 * The playground's first message: what this page is, how to connect a real Slack app, and commands that
 * work as typed against the simulated API's seeded data (identifier ids and an event uid taken from it).
 */
import type { SimApi } from '../sim/api/index.js';

export interface WelcomeFacts {
  tenantName: string;
  identifier: { id: number; name: string };
  otherIdentifier: { id: number; name: string } | undefined;
  /** An event of the identifier that is open and high or critical, for the filtered example and explain. */
  eventUid: string | undefined;
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
  return {
    tenantName: sim.state.tenants.find((t) => t.id === tenantId)?.name ?? 'the default tenant',
    identifier: { id: pick?.id ?? 3001, name: pick?.name ?? 'acme.example' },
    otherIdentifier: other ? { id: other.id, name: other.name } : undefined,
    eventUid: severe?.item.metadata.uid,
  };
}

/** The example commands, as typed in the composer (without `/vigil `). */
export function exampleCommands(f: WelcomeFacts): { command: string; does: string }[] {
  const id = f.identifier.id;
  return [
    { command: 'help', does: 'every command, with examples' },
    { command: 'status', does: 'the connection: tenant, key id, quota' },
    {
      command: `events ${id} severity:high since:90d`,
      does: `high and critical events of ${f.identifier.name}`,
    },
    ...(f.otherIdentifier
      ? [{ command: `events ${f.otherIdentifier.id}`, does: `events of ${f.otherIdentifier.name}` }]
      : []),
    { command: `events ${id} secret`, does: 'a private form to search by a secret' },
    ...(f.eventUid ? [{ command: `explain ${f.eventUid}`, does: 'AI assistance for one event' }] : []),
    { command: 'creds domain acme.example', does: 'leaked credentials of a domain, masked' },
    { command: 'policies', does: 'matching policies, with their assignments' },
    { command: 'recommendations', does: 'identifiers the API recommends monitoring' },
    { command: 'settings', does: 'who may do what through Vigil' },
    { command: 'audit', does: 'the latest actions taken through Vigil' },
    { command: 'digest list', does: "this channel's daily digests" },
  ];
}

/** The welcome message's Block Kit, rendered like any other message. */
export function welcomeMessage(f: WelcomeFacts): { text: string; blocks: unknown[] } {
  const examples = exampleCommands(f)
    .map((e) => `• \`/vigil ${e.command}\` — ${e.does}`)
    .join('\n');
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
            `machine. The workspace is already connected to the simulated tenant *${f.tenantName}*, and you are ` +
            '@adam, a workspace admin. Everything you do here goes through the same signed requests Slack would send.',
        },
      },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*Try these* (click one to put it in the composer):\n${examples}` },
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
