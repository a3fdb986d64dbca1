/**
 * How containment reaches an identity provider: undici's `request` on Vigil's outbound dispatcher (so the
 * proxy of HTTPS_PROXY applies, as to every other call), each exchange told to the metrics with its route
 * template, and a bearer credential sent only to a host of VIGIL_IDP_ALLOWED_HOSTS over https (plain http to
 * loopback only). The vendors' SDKs bring their own HTTP stacks, which would bypass both.
 */
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { RefusalError, VigilError } from '../../kernel/errors.js';
import { isLoopbackHost, mayCarryToken } from '../../kernel/net.js';

/** Metrics' view of one exchange (the API client's observer shape: a bounded origin, a route template). */
interface IdpExchange {
  origin: string;
  method: string;
  route: string;
  status: number | undefined;
  ms: number;
}

export interface IdpHttpDeps {
  dispatcher: Dispatcher;
  allowedHosts: readonly string[];
  now: () => number;
  observe?: (exchange: IdpExchange) => void;
  /** Per attempt; a provider that does not answer in time is "down". */
  timeoutMs?: number;
}

export interface IdpCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  /** For the metrics: `/v1.0/users/{id}`, never a path carrying an id. */
  route: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface IdpAnswer {
  status: number;
  retryAfter: string | undefined;
  /** Okta's `X-Rate-Limit-Reset`: when the window resets, in epoch seconds. */
  rateLimitReset: string | undefined;
  /** RFC 9449 §8: the nonce the server wants in the next DPoP proof. */
  dpopNonce: string | undefined;
  /** RFC 6750 §3: why a bearer (or DPoP) token was refused, `insufficient_scope` with the scope needed. */
  wwwAuthenticate: string | undefined;
  body: unknown;
}

/** The provider did not answer (refused connection, timeout): nothing was done, the request can be retried. */
export class ProviderDownError extends VigilError {
  constructor(provider: string, cause: unknown) {
    super(
      `${provider} did not answer, so nothing was done.`,
      'Try again in a few minutes; the request stays open until it expires.',
      { cause },
    );
  }
}

/** The host is not one VIGIL_IDP_ALLOWED_HOSTS lets a credential go to. */
class HostNotAllowedError extends RefusalError {
  constructor(host: string) {
    super(
      `Vigil does not send identity provider credentials to ${host}.`,
      'The operator lists the hosts it may reach in VIGIL_IDP_ALLOWED_HOSTS (https only).',
    );
  }
}

export class IdpHttp {
  constructor(private readonly deps: IdpHttpDeps) {}

  async send(provider: string, call: IdpCall): Promise<IdpAnswer> {
    // Loopback is exempt from the list, as for the API (tests, a local simulator), never from the rest.
    const hosts = isLoopbackHost(call.url.hostname) ? [call.url.host] : this.deps.allowedHosts;
    if (!mayCarryToken(call.url, hosts)) throw new HostNotAllowedError(call.url.host);
    const started = this.deps.now();
    let status: number | undefined;
    try {
      const timeout = this.deps.timeoutMs ?? 15_000;
      const res = await request(call.url, {
        method: call.method,
        dispatcher: this.deps.dispatcher,
        headers: { accept: 'application/json', ...call.headers },
        ...(call.body === undefined ? {} : { body: call.body }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = res.statusCode;
      const text = await res.body.text();
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      return {
        status,
        retryAfter: header('retry-after'),
        rateLimitReset: header('x-rate-limit-reset'),
        dpopNonce: header('dpop-nonce'),
        wwwAuthenticate: header('www-authenticate'),
        body: parseJson(text),
      };
    } catch (err) {
      if (err instanceof VigilError) throw err;
      throw new ProviderDownError(provider, err);
    } finally {
      this.deps.observe?.({
        origin: call.url.origin,
        method: call.method,
        route: call.route,
        status,
        ms: this.deps.now() - started,
      });
    }
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A body read through its schema; a provider answering something else is a provider fault, not a crash. */
export function readAs<S extends z.ZodType>(provider: string, schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new VigilError(
    `${provider} answered in a shape Vigil does not know.`,
    'Nothing more was done; try again, and tell the operator if it persists.',
  );
}
