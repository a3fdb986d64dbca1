/**
 * The outbound proxy variables as curl reads them: HTTPS_PROXY, HTTP_PROXY and NO_PROXY, the lower-case name
 * first; part of the configuration (config.ts), apart so each module stays small.
 */
import { normalizeNoProxy, type ProxySettings } from './net.js';

/** The value of a proxy variable: the lower-case name first, as curl and undici read them. */
function proxyVariable(
  env: Record<string, string | undefined>,
  upper: 'HTTPS_PROXY' | 'HTTP_PROXY' | 'NO_PROXY',
): { name: string; value: string } | undefined {
  for (const name of [upper.toLowerCase(), upper]) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** A proxy URL; `host:port` alone means http:// as with curl. Problems never quote it (it may hold a password). */
function proxyUrl(variable: { name: string; value: string } | undefined, problems: string[]): string {
  if (!variable) return '';
  const { name, value } = variable;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (!url || url.hostname === '') {
    problems.push(`${name}: must be a proxy URL such as http://proxy.example:3128`);
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`${name}: must be an http:// or https:// proxy (not ${url.protocol.slice(0, -1)})`);
    return '';
  }
  return url.toString();
}

/** HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case); undefined when no proxy is set. */
export function proxySettings(
  env: Record<string, string | undefined>,
  problems: string[],
): ProxySettings | undefined {
  const httpsProxy = proxyUrl(proxyVariable(env, 'HTTPS_PROXY'), problems);
  const httpProxy = proxyUrl(proxyVariable(env, 'HTTP_PROXY'), problems);
  if (!httpsProxy && !httpProxy) return undefined;
  return { httpsProxy, httpProxy, noProxy: normalizeNoProxy(proxyVariable(env, 'NO_PROXY')?.value ?? '') };
}
