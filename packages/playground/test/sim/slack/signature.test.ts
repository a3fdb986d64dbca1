import { isValidSlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { SLACK_SIGNATURE_EXAMPLE, signSlackRequest } from '../../../../../test/harness/slack-signature.js';

describe('signSlackRequest', () => {
  it('reproduces Slack’s published example', () => {
    const { signingSecret, body, timestampSec, signature } = SLACK_SIGNATURE_EXAMPLE;
    expect(signSlackRequest(signingSecret, body, timestampSec)).toBe(signature);
    expect(signSlackRequest(signingSecret, Buffer.from(body), timestampSec)).toBe(signature);
  });

  it('agrees with Bolt’s verifier, which refuses any other body, secret or timestamp', () => {
    const { signingSecret, body, timestampSec } = SLACK_SIGNATURE_EXAMPLE;
    const nowMilliseconds = timestampSec * 1000 + 1_000;
    const check = (b: string, secret: string, ts: number) =>
      isValidSlackRequest({
        signingSecret,
        body: b,
        headers: {
          'x-slack-signature': signSlackRequest(secret, body, ts),
          'x-slack-request-timestamp': timestampSec,
        },
        nowMilliseconds,
      });
    expect(check(body, signingSecret, timestampSec)).toBe(true);
    expect(check(`${body}x`, signingSecret, timestampSec)).toBe(false);
    expect(check(body, `${signingSecret}x`, timestampSec)).toBe(false);
    expect(check(body, signingSecret, timestampSec + 1)).toBe(false);
  });
});
