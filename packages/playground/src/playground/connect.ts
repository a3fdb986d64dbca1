/**
 * The playground's workspace is connected the way an admin connects one: `/vigil connect` in Slack, then the
 * one-time page Vigil links to, the key and the tenant submitted as the admin's browser would. Nothing comes
 * from VIGIL_API_KEY, so `tenant`, `connect` and `disconnect` work as in a real workspace, and the playground
 * reaches nothing inside Vigil.
 */
import { type FakeSlack, SEEDED_CHANNELS } from '../sim/slack/index.js';
import type { Actor, createSlackSide } from './slack-side.js';

export interface AdminConnection {
  /** The admin who connects it. */
  actor: Actor;
  apiKey: string;
  tenantId: number;
  /** The region offered on the page for the simulated API (its host). */
  region: string;
}

interface Parts {
  side: ReturnType<typeof createSlackSide>;
  slack: FakeSlack;
  /** Where Vigil listens: the page's path is reached there, whatever origin the link carries. */
  vigilUrl: string;
}

export async function connectAsAdmin(parts: Parts, c: AdminConnection): Promise<void> {
  const { side, slack } = parts;
  const responseUrl = slack.responseUrl();
  await side.slashCommand(c.actor, {
    text: 'connect',
    channelId: SEEDED_CHANNELS.security,
    channelName: 'security',
    responseUrl,
    triggerId: slack.triggerId(),
  });
  const reply = await slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl);
  const link = /"url":"(https?:\/\/[^"]+\/connect\/[A-Za-z0-9_-]+)"/.exec(reply.rawBody)?.[1];
  if (link === undefined) throw new Error('`/vigil connect` answered without a connect link');
  const pageUrl = `${parts.vigilUrl}${new URL(link).pathname}`;
  await submit(pageUrl, { step: 'key', api_key: c.apiKey, region: c.region });
  await submit(pageUrl, { step: 'tenant', tenant_id: String(c.tenantId) });
}

/** Loads the page (its per-page form token), then posts its form as the browser does from Vigil's origin. */
async function submit(url: string, fields: Record<string, string>): Promise<void> {
  const page = await (await fetch(url)).text();
  const token = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
  const res = await fetch(url, {
    method: 'POST',
    // Referrer-Policy no-referrer makes a browser's origin `null`; Sec-Fetch-Site says it is Vigil's own page.
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'null',
      'sec-fetch-site': 'same-origin',
    },
    body: new URLSearchParams({
      ...(token === undefined ? {} : { form_token: token }),
      ...fields,
    }).toString(),
    redirect: 'manual',
  });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`the connect page refused the ${fields.step} step (${res.status})`);
}
