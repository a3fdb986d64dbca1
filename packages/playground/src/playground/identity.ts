/**
 * The playground's identity provider: a simulated Microsoft Entra ID whose directory holds the people of a few
 * leaked credentials (matched by mail, as a real directory would be), connected at start as an admin connects
 * it through the form. With one person at the page there is no second approver, so the playground turns
 * `contain-approval` off at start (audited; `/vigil settings contain-approval on` turns it back).
 */
import { randomUUID } from 'node:crypto';
import type { SimApi } from '../sim/api/index.js';
import { type SimDirectoryUser, type SimEntra, startSimEntra } from '../sim/identity/index.js';
import { type FakeSlack, SEEDED_CHANNELS } from '../sim/slack/index.js';
import type { PlaygroundSession } from './session.js';
import type { Actor, createSlackSide } from './slack-side.js';

/** How many leaked identities the directory holds. */
const PEOPLE = 6;

export function startPlaygroundEntra(sim: SimApi, now: () => number): Promise<SimEntra> {
  const identities = [
    ...new Set(
      sim.state.credentials
        .map((c) => c.identity_name)
        .filter((name) => name.includes('@') && !/(gmail|mail)\.example$/.test(name)),
    ),
  ].slice(0, PEOPLE);
  const users = identities.map(
    (mail, i): SimDirectoryUser => ({
      id: randomUUID(),
      displayName: mail.split('@')[0]?.replace(/[._]/g, ' ') ?? mail,
      userPrincipalName: mail,
      mail,
      accountEnabled: true,
      userType: 'Member',
      lastSignInDateTime: new Date(now() - (i + 1) * 3_600_000).toISOString(),
      ...(i % 2 === 0 ? { risk: { riskLevel: 'medium', riskState: 'atRisk' } } : {}),
    }),
  );
  return startSimEntra({ users, now });
}

/**
 * Connects the simulated Entra ID as an admin does: `/vigil idp connect entra …`, the client secret typed into
 * the form Vigil opens (never the command), then `/vigil settings contain-approval off`.
 */
export async function connectEntraAsAdmin(
  parts: {
    side: ReturnType<typeof createSlackSide>;
    slack: FakeSlack;
    /** The page's session, whose modal list the form is taken off once submitted (as Slack closes it). */
    session: Pick<PlaygroundSession, 'close'>;
  },
  entra: SimEntra,
  actor: Actor,
): Promise<void> {
  const { side, slack } = parts;
  const command = async (text: string, triggerId = slack.triggerId()) => {
    const responseUrl = slack.responseUrl();
    await side.slashCommand(actor, {
      text,
      channelId: SEEDED_CHANNELS.security,
      channelName: 'security',
      responseUrl,
      triggerId,
    });
    return responseUrl;
  };
  const triggerId = slack.triggerId();
  await command(`idp connect entra tenant:${entra.tenantId} client:${entra.clientId}`, triggerId);
  const opened = await slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === triggerId);
  const view = (opened.response as { view?: Record<string, unknown> }).view ?? {};
  const values = { secret: { value: { type: 'plain_text_input', value: entra.clientSecret } } };
  const earlier = new Set(slack.calls);
  const answer = await side.viewSubmission(actor, view, values, slack.triggerId());
  if (answer.status !== 200) throw new Error(`the identity provider form was refused (${answer.status})`);
  await parts.session.close(String(view.id));
  // Connected once Vigil says so in the channel (its check runs after the form closes): the page starts settled.
  await slack.waitFor(
    (c) =>
      !earlier.has(c) && c.method === 'chat.postEphemeral' && c.body.channel === SEEDED_CHANNELS.security,
    30_000,
  );
  const approval = await command('settings contain-approval off');
  await slack.waitForPost((p) => `${slack.url}${p.path}` === approval);
}
