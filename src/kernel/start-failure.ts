/**
 * A failed start in words an operator can act on: which call to which host failed, why as far as the
 * network tells, and what to check (DNS, the proxy, the token), instead of "fetch failed".
 */
import type { Config } from '../app/config.js';

/** The first `code` along the error's causes (`original` is where @slack/web-api keeps the fetch error). */
function codeOf(err: unknown, depth = 0): string | undefined {
  if (depth > 6 || typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; cause?: unknown; original?: unknown };
  if (typeof e.code === 'string' && !e.code.startsWith('slack_')) return e.code;
  return codeOf(e.original, depth + 1) ?? codeOf(e.cause, depth + 1);
}

/** Every message and error name along the causes (an aborted fetch says why only in its name). */
function messagesOf(err: unknown, depth = 0): string {
  if (depth > 6 || !(err instanceof Error)) return '';
  const e = err as Error & { original?: unknown };
  return `${e.name}: ${e.message} ${messagesOf(e.original, depth + 1)} ${messagesOf(e.cause, depth + 1)}`;
}

/** Why a connection failed, and what to check, from the network's error code. */
function networkReason(code: string | undefined, text: string, viaProxy: boolean): string {
  const proxy = viaProxy ? ' and HTTPS_PROXY / NO_PROXY' : '';
  if (/Proxy response \(407\)/.test(text))
    return 'the proxy asks for credentials: check the user and password in HTTPS_PROXY';
  // Fetch refuses some ports outright (the Fetch standard's "bad ports": 1, 25, 6000…) before connecting.
  if (/\bbad port\b/.test(text))
    return 'the port is one fetch refuses to use (a "bad port" of the Fetch standard): use another port in the URL';
  // A host that accepts the connection and never answers: each attempt is cut by its own time bound.
  if (code === undefined && /\bTimeoutError\b|aborted due to timeout/i.test(text))
    return `no answer in time: the host accepted the connection but did not answer; check the URL${proxy}`;
  if (/Proxy response \((\d+)\)/.test(text))
    return `the proxy refused the connection (${/Proxy response \((\d+)\)/.exec(text)?.[1]}): check HTTPS_PROXY and the proxy's rules`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${code}): check DNS, the URL${proxy}`;
    case 'ECONNREFUSED':
      return `nothing accepts connections there (${code}): check the URL and port${proxy}`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'ABORT_ERR':
      return `no answer in time (${code}): check the network, a firewall${proxy}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection was cut (${code}): check a firewall or TLS inspection${proxy}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to the host (${code}): check the network${proxy}`;
  }
  if (code && /CERT|SSL|TLS|SELF_SIGNED/.test(code))
    return `the TLS certificate was not accepted (${code}): a proxy that inspects TLS needs its CA in NODE_EXTRA_CA_CERTS`;
  return `the connection failed${code ? ` (${code})` : ''}: check DNS, the network${proxy}`;
}

/** One or two lines saying what failed and what to check; undefined when the error is not one of these. */
export function explainStartFailure(err: unknown, config: Config): string | undefined {
  const e = err as { code?: unknown; data?: { error?: unknown } };
  const slackHost = URL.canParse(config.slack.apiUrl)
    ? new URL(config.slack.apiUrl).host
    : config.slack.apiUrl;
  const slackCall = config.slack.appToken
    ? 'opening Socket Mode (apps.connections.open)'
    : 'checking the bot token (auth.test)';
  if (e.code === 'slack_webapi_platform_error') {
    const answer = typeof e.data?.error === 'string' ? e.data.error : 'an error';
    const variable = config.slack.appToken ? 'SLACK_APP_TOKEN' : 'SLACK_BOT_TOKEN';
    return `${slackCall} at ${slackHost}: Slack answered ${answer}; check ${variable} (revoked, another app's, or the wrong workspace)`;
  }
  if (e.code === 'slack_webapi_request_error' || e.code === 'slack_webapi_http_error') {
    const via = config.proxy ? ' through the proxy' : '';
    return `${slackCall} at ${slackHost}${via} failed: ${networkReason(codeOf(err), messagesOf(err), config.proxy !== undefined)}`;
  }
  const code = codeOf(err);
  if (code === 'EADDRINUSE' || code === 'EACCES')
    return `listening on port ${config.port} failed (${code}): another process has it, or it needs privileges; set PORT`;
  if (err instanceof Error && err.name === 'StoreUnavailableError') {
    const store = URL.canParse(config.store.url)
      ? new URL(config.store.url).host || config.store.url
      : config.store.url;
    return `opening the store ${store} failed: ${networkReason(code, messagesOf(err), false).replace('the URL', 'VIGIL_STORE')}`;
  }
  // The encryption key (missing, unreadable, or not the one that sealed the store): its message says what to do.
  if (err instanceof Error && (err.name === 'SealError' || err.name === 'MissingKeyError'))
    return err.message;
  return undefined;
}
