import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/api/client.js';
import { ConfigurationError } from '../../../src/api/index.js';
import { startServer } from '../support/server.js';

const make = (
  baseUrl: string,
  allowedHosts: string[] = ['api.flare.io', 'api.eu.flare.io'],
  family?: string,
) => createApiClient({ baseUrl, allowedHosts, ...(family === undefined ? {} : { family }) });

describe('base URL and host allow-list', () => {
  it.each([
    'https://api.flare.io',
    'https://API.EU.FLARE.IO/',
    'http://127.0.0.1:8080',
    'http://127.9.9.9',
    'http://localhost:3000',
    'http://[::1]:9000',
  ])('accepts %s', async (url) => {
    const client = make(url);
    expect(client.family).toBe('firework');
    await client.close();
  });

  it.each([
    ['plain http to a remote host', 'http://api.flare.io'],
    ['a host outside the allow-list', 'https://evil.example.com'],
    ['a look-alike host', 'https://api.flare.io.evil.example'],
    ['credentials in the URL', 'https://user:pass@api.flare.io'],
    ['a query string', 'https://api.flare.io/?x=1'],
    ['another scheme', 'ftp://api.flare.io'],
    ['a relative URL', '/api'],
  ])('refuses %s', (_label, url) => {
    expect(() => make(url)).toThrow(ConfigurationError);
  });

  it('refuses a family that is not a single path segment', () => {
    expect(() => make('https://api.flare.io', undefined, '../tokens')).toThrow(ConfigurationError);
    expect(make('https://api.flare.io', undefined, 'core').family).toBe('core');
  });

  it('keeps a base path prefix and sends requests under it', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.path.endsWith('/tokens/generate') ? '{"token":"t"}' : '{"items":[],"next":null}');
    });
    try {
      const client = createApiClient({ baseUrl: `${server.url}/proxy/`, allowedHosts: [], family: 'core' });
      await client.session({ apiKey: 'k' }).listMatchingPolicies();
      await client.close();
      expect(server.requests.map((r) => r.path)).toEqual([
        '/proxy/tokens/generate',
        '/proxy/core/v4/matching-policies',
      ]);
    } finally {
      await server.close();
    }
  });
});
