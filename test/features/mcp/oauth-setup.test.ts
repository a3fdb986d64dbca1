/**
 * What turning the OAuth door on takes: VIGIL_MCP_OAUTH needs VIGIL_MCP and the Slack app's client id and
 * secret (Sign in with Slack), which a single-workspace install may set without SLACK_STATE_SECRET.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/app/config.js';

const BASE = {
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: 'secret',
  VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
  VIGIL_MCP: '1',
};
const APP = { SLACK_CLIENT_ID: '123.456', SLACK_CLIENT_SECRET: 'shh' };

describe('VIGIL_MCP_OAUTH', () => {
  it('is off by default', () => {
    expect(loadConfig(BASE).mcp.oauth).toBeUndefined();
  });

  it('keeps a single-workspace install single, with the app credentials for Sign in with Slack', () => {
    const c = loadConfig({ ...BASE, ...APP, VIGIL_MCP_OAUTH: '1' });
    expect(c.mcp.oauth).toEqual({ clientId: '123.456', clientSecret: 'shh' });
    expect(c.slack.mode).toEqual({ kind: 'single', botToken: 'xoxb-test' });
  });

  it('is refused without VIGIL_MCP, without the app credentials, or with a bad value', () => {
    expect(() => loadConfig({ ...BASE, ...APP, VIGIL_MCP: '0', VIGIL_MCP_OAUTH: '1' })).toThrow(
      /VIGIL_MCP_OAUTH: needs VIGIL_MCP=1/,
    );
    expect(() => loadConfig({ ...BASE, VIGIL_MCP_OAUTH: '1' })).toThrow(
      /SLACK_CLIENT_ID and SLACK_CLIENT_SECRET/,
    );
    expect(() => loadConfig({ ...BASE, ...APP, VIGIL_MCP_OAUTH: 'yes' })).toThrow(ConfigError);
    // Without the OAuth door, a partial multi-workspace configuration is still refused.
    expect(() => loadConfig({ ...BASE, ...APP })).toThrow(/SLACK_STATE_SECRET/);
  });
});
