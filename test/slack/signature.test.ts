import { describe, expect, it } from 'vitest';
import { computeSignature, verifySignature } from '../../src/slack/signature.js';
import { SLACK_SIGNATURE_EXAMPLE } from '../harness/index.js';

/** Slack's documented replay window: a signature older or newer than five minutes is refused. */
const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

const EX = SLACK_SIGNATURE_EXAMPLE;
const exampleNowMs = EX.timestampSec * 1000;

function check(over: Partial<Parameters<typeof verifySignature>[0]> = {}) {
  return verifySignature({
    signingSecret: EX.signingSecret,
    timestampHeader: String(EX.timestampSec),
    signatureHeader: EX.signature,
    rawBody: Buffer.from(EX.body),
    nowMs: exampleNowMs,
    ...over,
  });
}

describe('computeSignature', () => {
  it('reproduces Slack’s published example', () => {
    expect(computeSignature(EX.signingSecret, String(EX.timestampSec), EX.body)).toBe(EX.signature);
    expect(computeSignature(EX.signingSecret, String(EX.timestampSec), Buffer.from(EX.body))).toBe(
      EX.signature,
    );
  });
});

describe('verifySignature', () => {
  it('accepts Slack’s example at the moment it was signed', () => {
    expect(check()).toBeUndefined();
  });

  it('accepts skew up to 5 minutes either way, inclusive', () => {
    expect(check({ nowMs: exampleNowMs + MAX_CLOCK_SKEW_SECONDS * 1000 })).toBeUndefined();
    expect(check({ nowMs: exampleNowMs - MAX_CLOCK_SKEW_SECONDS * 1000 })).toBeUndefined();
    // Sub-second parts of now do not count against the window.
    expect(check({ nowMs: exampleNowMs + MAX_CLOCK_SKEW_SECONDS * 1000 + 999 })).toBeUndefined();
  });

  it('refuses stale and future-dated requests one second past the window', () => {
    expect(check({ nowMs: exampleNowMs + (MAX_CLOCK_SKEW_SECONDS + 1) * 1000 })).toBe('stale');
    expect(check({ nowMs: exampleNowMs - (MAX_CLOCK_SKEW_SECONDS + 1) * 1000 })).toBe('future');
    expect(check({ nowMs: exampleNowMs + 6 * 60_000 })).toBe('stale');
    expect(check({ nowMs: exampleNowMs - 6 * 60_000 })).toBe('future');
  });

  it('refuses a tampered body', () => {
    expect(check({ rawBody: Buffer.from(EX.body.replace('text=', 'text=x')) })).toBe('mismatch');
    expect(check({ rawBody: Buffer.from(`${EX.body} `) })).toBe('mismatch');
  });

  it('refuses a signature made with another secret, or for another timestamp', () => {
    expect(check({ signingSecret: `${EX.signingSecret}x` })).toBe('mismatch');
    const ts = String(EX.timestampSec + 1);
    expect(check({ timestampHeader: ts, nowMs: exampleNowMs + 1000 })).toBe('mismatch');
  });

  it('refuses a signature of the wrong length or version without throwing', () => {
    expect(check({ signatureHeader: EX.signature.slice(0, -1) })).toBe('mismatch');
    expect(check({ signatureHeader: EX.signature.replace('v0=', 'v1=') })).toBe('mismatch');
    expect(check({ signatureHeader: `${EX.signature}00` })).toBe('mismatch');
    expect(check({ signatureHeader: 'é'.repeat(67) })).toBe('mismatch');
  });

  it('refuses missing headers', () => {
    expect(check({ timestampHeader: undefined })).toBe('missing-headers');
    expect(check({ signatureHeader: undefined })).toBe('missing-headers');
    expect(check({ timestampHeader: '' })).toBe('missing-headers');
    expect(check({ signatureHeader: '' })).toBe('missing-headers');
  });

  it.each(['abc', '1531420618.5', '-1531420618', ' 1531420618', '1e9', '9'.repeat(13)])(
    'refuses the timestamp %j',
    (timestampHeader) => {
      expect(check({ timestampHeader })).toBe('bad-timestamp');
    },
  );
});
