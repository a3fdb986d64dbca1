/**
 * Where the API client may talk: https only (plain http allowed to loopback for tests and the local
 * simulator), and only to a host on the allow-list. The token is only ever sent to this origin.
 */
import { isLoopbackHost } from '../../kernel/net.js';
import { ConfigurationError } from './errors.js';

export interface ApiBase {
  origin: string;
  /** Path prefix of the base URL without trailing slash ('' for `https://api.flare.io`). */
  prefix: string;
  hostname: string;
}

const FAMILY = /^[a-z0-9_-]+$/i;

export function validateFamily(family: string): string {
  if (!FAMILY.test(family)) {
    throw new ConfigurationError(`API family must be a single path segment such as firework or core`);
  }
  return family;
}

export function validateBaseUrl(baseUrl: string, allowedHosts: readonly string[]): ApiBase {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError('The API base URL is not an absolute URL');
  }
  const hostname = url.hostname.toLowerCase();
  const loopback = isLoopbackHost(hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigurationError(`The API base URL must use https (got ${url.protocol.replace(':', '')})`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError('The API base URL must not contain credentials');
  }
  if (url.search || url.hash) {
    throw new ConfigurationError('The API base URL must not have a query or fragment');
  }
  const allowed = allowedHosts.map((h) => h.trim().toLowerCase()).filter(Boolean);
  if (!loopback && !allowed.includes(hostname)) {
    throw new ConfigurationError(
      `The API host ${hostname} is not in the allowed hosts (${allowed.join(', ')})`,
    );
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, ''), hostname };
}

/** An absolute URL on the API origin; throws if `path` would escape it. */
export function apiUrl(base: ApiBase, path: string, query = ''): URL {
  if (!path.startsWith('/') || path.startsWith('//')) {
    throw new ConfigurationError('Internal error: API paths must be absolute paths');
  }
  const url = new URL(`${base.origin}${base.prefix}${path}${query}`);
  if (url.origin !== base.origin) throw new ConfigurationError('Internal error: request left the API origin');
  return url;
}
