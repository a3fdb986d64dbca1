/** Where the bot token may go when Vigil fetches a file: Slack's file hosts only. */
import { describe, expect, it } from 'vitest';
import { isSlackFileUrl } from '../../src/services/sandbox.js';

const HOSTS = ['files.slack.com', '127.0.0.1:4567'];

describe('isSlackFileUrl', () => {
  it('allows https on Slack’s file host and the configured loopback fake', () => {
    expect(isSlackFileUrl(new URL('https://files.slack.com/files-pri/T1-F1/download/a.bin'), HOSTS)).toBe(
      true,
    );
    expect(isSlackFileUrl(new URL('http://127.0.0.1:4567/files-pri/T1-F1/download/a.bin'), HOSTS)).toBe(true);
  });

  it('refuses other hosts, plain http off loopback, and credentials in the URL', () => {
    expect(isSlackFileUrl(new URL('https://files.slack.com.evil.example/x'), HOSTS)).toBe(false);
    expect(isSlackFileUrl(new URL('https://evil.example/files-pri/x'), HOSTS)).toBe(false);
    expect(isSlackFileUrl(new URL('http://files.slack.com/x'), HOSTS)).toBe(false);
    expect(isSlackFileUrl(new URL('https://user:pw@files.slack.com/x'), HOSTS)).toBe(false);
    expect(isSlackFileUrl(new URL('http://127.0.0.1:9999/x'), HOSTS)).toBe(false);
  });
});
