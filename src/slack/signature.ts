/**
 * Slack request signing (v0): HMAC-SHA256 over `v0:<timestamp>:<raw body>`.
 * Bolt's own check only refuses stale timestamps; we refuse both directions so a request signed with a
 * clock far in the future cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

export type SignatureFailure = 'missing-headers' | 'bad-timestamp' | 'stale' | 'future' | 'mismatch';

/** @internal */
export function computeSignature(signingSecret: string, timestamp: string, rawBody: Buffer | string): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(rawBody);
  return `v0=${hmac.digest('hex')}`;
}

/** Returns undefined when the request is authentic, else why it is not. */
export function verifySignature(args: {
  signingSecret: string;
  timestampHeader: string | undefined;
  signatureHeader: string | undefined;
  rawBody: Buffer;
  nowMs: number;
}): SignatureFailure | undefined {
  const { timestampHeader, signatureHeader } = args;
  if (!timestampHeader || !signatureHeader) return 'missing-headers';
  if (!/^\d{1,12}$/.test(timestampHeader)) return 'bad-timestamp';
  const skew = Math.floor(args.nowMs / 1000) - Number(timestampHeader);
  if (skew > MAX_CLOCK_SKEW_SECONDS) return 'stale';
  if (skew < -MAX_CLOCK_SKEW_SECONDS) return 'future';
  const expected = Buffer.from(computeSignature(args.signingSecret, timestampHeader, args.rawBody));
  const given = Buffer.from(signatureHeader);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'mismatch';
  return undefined;
}
