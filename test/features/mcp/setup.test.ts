/**
 * What turning the MCP door on takes: VIGIL_MCP parsed like the other flags and refused without the signing
 * secret it verifies with; the manifest declaring the MCP server with Slack identity auth and `mcp:connect` (optional: an installer
 * may decline it, and the door then refuses).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/app/config.js';
import { readManifest } from '../../support/manifest.js';

const BASE = {
  SLACK_BOT_TOKEN: 'xoxb-test',
  SLACK_SIGNING_SECRET: 'secret',
  VIGIL_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('VIGIL_MCP', () => {
  it('is off by default, on with 1 or true, and refused otherwise', () => {
    expect(loadConfig(BASE).mcp.enabled).toBe(false);
    expect(loadConfig({ ...BASE, VIGIL_MCP: '1' }).mcp.enabled).toBe(true);
    expect(loadConfig({ ...BASE, VIGIL_MCP: 'true' }).mcp.enabled).toBe(true);
    expect(loadConfig({ ...BASE, VIGIL_MCP: '0' }).mcp.enabled).toBe(false);
    expect(() => loadConfig({ ...BASE, VIGIL_MCP: 'yes' })).toThrow(ConfigError);
  });

  it('needs SLACK_SIGNING_SECRET, even in Socket Mode', () => {
    const socket = { ...BASE, SLACK_SIGNING_SECRET: '', SLACK_APP_TOKEN: 'xapp-test' };
    expect(loadConfig(socket).mcp.enabled).toBe(false);
    expect(() => loadConfig({ ...socket, VIGIL_MCP: '1' })).toThrow(/VIGIL_MCP: .*SLACK_SIGNING_SECRET/);
  });
});

describe('manifest.yml', () => {
  it('declares Vigil’s MCP server with Slack identity auth at /mcp, and the mcp:connect scope as optional', () => {
    const manifest = readManifest() as {
      mcp_servers: Record<string, { url: string; auth_type: string }>;
      oauth_config: { scopes: { bot: string[]; bot_optional: string[] } };
    };
    expect(manifest.mcp_servers.vigil?.auth_type).toBe('slack_identity_auth');
    expect(manifest.mcp_servers.vigil?.url).toMatch(/^https:\/\/[^/]+\/mcp$/);
    expect(manifest.oauth_config.scopes.bot_optional).toContain('mcp:connect');
    expect(manifest.oauth_config.scopes.bot).not.toContain('mcp:connect');
  });
});
