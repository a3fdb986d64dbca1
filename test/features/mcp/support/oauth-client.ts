/**
 * Another MCP client (an analyst's own agent): the official MCP client SDK's OAuth support
 * (`OAuthClientProvider` with StreamableHTTPClientTransport) signing in to Vigil, Vigil sending the person
 * to the fake Slack's Sign in with Slack, and the browser's redirects walked by `fetch` (the person at the
 * consent page is whom `FakeSlack.signInAs` names).
 */

import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Stack } from '../../../support/stack.js';

/** The client's loopback redirect: never listened on, the walk stops at it. */
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/**
 * Vigil's public URL is `http://localhost:<port>` in the stack (VIGIL_PUBLIC_URL from the port) while it
 * listens on 127.0.0.1; `localhost` may resolve to ::1 first, so requests go to 127.0.0.1 by name.
 */
export const loopbackFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
  return fetch(url.replace('://localhost:', '://127.0.0.1:'), init);
};

/** Follows the browser's redirects from `start` until the client's redirect URI; returns where it landed. */
export async function walkRedirects(start: string): Promise<URL> {
  let at = start;
  for (let hop = 0; hop < 5; hop++) {
    if (at.startsWith(REDIRECT_URI)) return new URL(at);
    const res = await loopbackFetch(at, { redirect: 'manual' });
    const next = res.headers.get('location');
    if (res.status !== 302 || !next) throw new Error(`stopped at ${at}: ${res.status} ${await res.text()}`);
    at = next;
  }
  throw new Error('too many redirects');
}

export class TestOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** Where the last sign-in came back to (code, or error). */
  landed: URL | undefined;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'analyst agent',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.landed = await walkRedirects(url.href);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Vigil's public origin in the stack: `http://localhost:<the port it listens on>`. */
export function publicOrigin(stack: Stack): string {
  return `http://localhost:${new URL(stack.vigil.url).port}`;
}

function transportOf(stack: Stack, provider: TestOAuthProvider) {
  return new StreamableHTTPClientTransport(new URL(`${publicOrigin(stack)}/mcp`), {
    authProvider: provider,
    fetch: loopbackFetch,
  });
}

/**
 * Signs in as whom the fake Slack's consent page names, the SDK's way: the first connect is refused (401),
 * the SDK discovers, registers and sends the person to authorize; the code that comes back is exchanged
 * (`finishAuth`), and a second connect succeeds. Throws when the sign-in came back without a code.
 */
export async function signInClient(stack: Stack, provider = new TestOAuthProvider()): Promise<Client> {
  const first = transportOf(stack, provider);
  const probe = new Client({ name: 'analyst-agent', version: '1.0.0' });
  await probe.connect(first).then(
    () => {
      throw new Error('connected without signing in');
    },
    (err: unknown) => {
      if (!(err instanceof UnauthorizedError)) throw err;
    },
  );
  const code = provider.landed?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${provider.landed?.search ?? 'no redirect'}`);
  await first.finishAuth(code);
  return connectWith(stack, provider);
}

/** A client connected with the provider's tokens (the SDK refreshes them when refused). */
export async function connectWith(stack: Stack, provider: TestOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'analyst-agent', version: '1.0.0' });
  await client.connect(transportOf(stack, provider));
  return client;
}
