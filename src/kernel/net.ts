/** Network facts shared by the configuration and the API client (kernel: imports nothing). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Loopback hosts may be reached over plain http (tests, the local simulator). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Whether a bearer token may go to `url`: one of `hosts`, no credentials in it, https (plain http only to loopback). */
export function mayCarryToken(url: URL, hosts: readonly string[]): boolean {
  if (!hosts.includes(url.host) && !hosts.includes(url.hostname)) return false;
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/**
 * The outbound proxy of HTTPS_PROXY / HTTP_PROXY / NO_PROXY, parsed once from the environment. `''` means
 * none: an https URL goes through `httpsProxy` (else `httpProxy`), an http URL through `httpProxy`, except
 * hosts `noProxy` covers (curl's rules: a comma list of host names, domain suffixes and `host:port`; `*` for
 * every host). Nothing is exempt by default, loopback included.
 */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** NO_PROXY as undici matches it: lower case, `*` alone when listed at all, bare IPv6 in brackets. */
export function normalizeNoProxy(value: string): string {
  const entries = value
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.includes('*')) return '*';
  // `::1` would read as host `:` port 1; `[::1]` and `[::1]:8080` are what undici compares with.
  return entries.map((e) => (!e.startsWith('[') && e.split(':').length > 2 ? `[${e}]` : e)).join(',');
}
