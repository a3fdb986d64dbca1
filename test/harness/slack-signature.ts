/** Slack's v0 request signing: HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the app's signing secret. */
import { createHmac } from 'node:crypto';

export function signSlackRequest(secret: string, body: string | Buffer, timestampSec: number): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`v0:${timestampSec}:`);
  hmac.update(body);
  return `v0=${hmac.digest('hex')}`;
}

/** The worked example from Slack's "Verifying requests from Slack" guide. */
export const SLACK_SIGNATURE_EXAMPLE = {
  signingSecret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestampSec: 1531420618,
  body:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
    '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
    '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
} as const;
