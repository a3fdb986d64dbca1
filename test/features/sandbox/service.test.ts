/** Where the bot token may go when Vigil fetches a file: Slack's file hosts only. */
import { describe, expect, it } from 'vitest';
import { mayCarryToken } from '../../../src/kernel/net.js';

const HOSTS = ['files.slack.com', '127.0.0.1:4567'];

describe('mayCarryToken (Slack file URLs)', () => {
  it('allows https on Slack’s file host and the configured loopback fake', () => {
    expect(mayCarryToken(new URL('https://files.slack.com/files-pri/T1-F1/download/a.bin'), HOSTS)).toBe(
      true,
    );
    expect(mayCarryToken(new URL('http://127.0.0.1:4567/files-pri/T1-F1/download/a.bin'), HOSTS)).toBe(true);
  });

  it('refuses other hosts, plain http off loopback, and credentials in the URL', () => {
    expect(mayCarryToken(new URL('https://files.slack.com.evil.example/x'), HOSTS)).toBe(false);
    expect(mayCarryToken(new URL('https://evil.example/files-pri/x'), HOSTS)).toBe(false);
    expect(mayCarryToken(new URL('http://files.slack.com/x'), HOSTS)).toBe(false);
    expect(mayCarryToken(new URL('https://user:pw@files.slack.com/x'), HOSTS)).toBe(false);
    expect(mayCarryToken(new URL('http://127.0.0.1:9999/x'), HOSTS)).toBe(false);
  });
});
