/**
 * How Vigil's Slack-side calls leave the process: the Web API (Bolt's, the OAuth installer's, the posters'
 * WebClients and Bolt's `respond`, all fetch-based), Socket Mode's WebSocket, response_url posts, file
 * uploads and downloads. With a proxy configured they all share one undici proxy agent (the API client builds
 * its own, with its own bounds); without one, nothing changes: the global dispatcher and fetch.
 */
import { type Dispatcher, EnvHttpProxyAgent, getGlobalDispatcher, fetch as undiciFetch } from 'undici';
import type { ProxySettings } from './net.js';

export interface Outbound {
  /** For undici's `request` and WebSocket. */
  dispatcher: Dispatcher;
  /** For the WebClients (`clientOptions.fetch`). */
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

/** The process's own dispatcher and fetch: what every call used before a proxy could be set. */
const directOutbound: Outbound = {
  get dispatcher() {
    return getGlobalDispatcher();
  },
  fetch: (input, init) => globalThis.fetch(input, init),
  close: async () => {},
};

export function createOutbound(proxy: ProxySettings | undefined): Outbound {
  if (!proxy) return directOutbound;
  // Every field given, so undici never reads process.env on its own.
  const dispatcher = new EnvHttpProxyAgent({ ...proxy });
  // undici's own fetch: the dispatcher is of this undici, which Node's bundled fetch may not match.
  const fetch = ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof globalThis.fetch;
  return { dispatcher, fetch, close: () => dispatcher.close() };
}
