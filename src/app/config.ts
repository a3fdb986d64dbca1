/**
 * The environment contract (docs/operator-guide.md, "Configuration"), parsed once at start-up from an env object passed in.
 * A bad value stops start-up with one clear line per problem (`ConfigError.lines`).
 */
import {
  absoluteUrl,
  matching,
  oneOf,
  optional,
  parsedBy,
  readVariables,
  text,
  wholeNumber,
  withDefault,
} from '../kernel/env-values.js';
import { isLoopbackHost, type ProxySettings } from '../kernel/net.js';
import {
  type Actors,
  type Permission,
  parseAdmins,
  parsePermissionDefaults,
  type VigilAdmins,
} from '../kernel/permission-rules.js';
import { proxySettings } from '../kernel/proxy-variables.js';

const portNumber = wholeNumber({ min: 0, max: 65535, message: 'must be a port number (0-65535)' });
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

const MAKE_KEY =
  "make one with: openssl rand -base64 32, or: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64'))\"";
const isKey = (v: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['text', 'json'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

const milliseconds = (what: string, max: number, maxSaid: string) =>
  wholeNumber({
    min: 1000,
    max,
    message: `must be milliseconds between ${what} (1000 to ${max})`,
    tooSmall: 'must be at least 1000 ms',
    tooLarge: `must be at most ${max} ms (${maxSaid})`,
  });
const limit = (message: string, min: number, max: number) => wholeNumber({ min, max, message });
const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** A duration like `30d`, `24h`, `90m` or `45s` (or milliseconds), from a minute to `maxDays`. */
const durationUpTo = (maxDays: number) =>
  parsedBy((value) => {
    const m = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(value.trim());
    const ms = m ? Number(m[1]) * (DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()] ?? 1) : Number.NaN;
    if (!(Number.isSafeInteger(ms) && ms >= 60_000 && ms <= maxDays * 86_400_000))
      return `must be a duration from 1m to ${maxDays}d, like 30d, 24h or 90m`;
    return ms;
  });
const duration = durationUpTo(366);

/** Every variable of the environment contract, each with its reader (env-values.ts), in the order checked. */
const VARIABLES = {
  SLACK_SIGNING_SECRET: optional(text()),
  SLACK_BOT_TOKEN: optional(matching(/^xoxb-/, 'must be a bot token starting with xoxb-')),
  SLACK_APP_TOKEN: optional(matching(/^xapp-/, 'must be an app-level token starting with xapp-')),
  SLACK_CLIENT_ID: optional(text()),
  SLACK_CLIENT_SECRET: optional(text()),
  SLACK_STATE_SECRET: optional(text()),
  SLACK_API_URL: withDefault(absoluteUrl, 'https://slack.com/api/'),
  PORT: withDefault(portNumber, 3000),
  VIGIL_PUBLIC_URL: optional(absoluteUrl),
  VIGIL_STORE: withDefault(
    matching(/^(sqlite|redis|rediss):\/\//, 'must start with sqlite://, redis:// or rediss://'),
    'sqlite://data/vigil.sqlite',
  ),
  VIGIL_INSTANCE_NAME: optional(
    matching(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1-100 letters, digits, dots, dashes or underscores'),
  ),
  VIGIL_ENCRYPTION_KEY: optional(text(isKey, `must be 32 bytes in base64 (${MAKE_KEY})`)),
  VIGIL_ENCRYPTION_KEY_FILE: optional(text()),
  VIGIL_ENCRYPTION_KEY_OLD: optional(
    text(
      (v) => splitList(v).every(isKey),
      'must be earlier keys, each 32 bytes in base64, separated by commas',
    ),
  ),
  VIGIL_API_URL: withDefault(absoluteUrl, 'https://api.flare.io'),
  VIGIL_API_FAMILY: withDefault(
    matching(/^[a-z0-9_-]+$/i, 'must be a single path segment such as firework or core'),
    'firework',
  ),
  VIGIL_API_ALLOWED_HOSTS: withDefault(text(), 'api.flare.io,api.eu.flare.io'),
  VIGIL_API_KEY: optional(text()),
  VIGIL_TENANT_ID: optional(wholeNumber({ min: 1, message: 'must be a tenant id (a positive integer)' })),
  VIGIL_ADMINS: withDefault(parsedBy(parseAdmins), { users: [], usergroups: [] }),
  VIGIL_DEFAULT_PERMISSIONS: withDefault(parsedBy(parsePermissionDefaults), {}),
  VIGIL_PORTAL_HOSTS: withDefault(
    matching(/^[a-z0-9.-]+(,\s*[a-z0-9.-]+)*$/i, 'must be host names, comma-separated (app.flare.io)'),
    'app.flare.io,app.eu.flare.io',
  ),
  VIGIL_DIGEST_TICK_MS: withDefault(milliseconds('digest ticks', 3_600_000, 'an hour'), 60_000),
  VIGIL_ALERT_POLL_MS: withDefault(milliseconds('alert polls', 3_600_000, 'an hour'), 60_000),
  VIGIL_STATE_SYNC_MS: withDefault(milliseconds('re-reads of posted events', 86_400_000, 'a day'), 300_000),
  VIGIL_ASK_PERSON_COOLDOWN: withDefault(duration, 30 * 86_400_000),
  VIGIL_ASK_PERSON_PER_HOUR: withDefault(
    limit('must be a whole number of DMs an hour (1 to 10000)', 1, 10_000),
    50,
  ),
  VIGIL_ASK_PERSON_ESCALATE: withDefault(duration, 24 * 3_600_000),
  VIGIL_AUDIT_RETENTION: withDefault(
    wholeNumber({
      min: 100,
      max: 1_000_000,
      message: 'must be a number of audit entries kept per workspace (100 to 1000000)',
      tooSmall: 'must be at least 100 entries',
      tooLarge: 'must be at most 1000000 entries',
    }),
    10_000,
  ),
  VIGIL_SANDBOX_MAX_BYTES: withDefault(
    wholeNumber({ min: 1, message: 'must be a number of bytes (a positive integer)' }),
    100 * 1024 * 1024,
  ),
  VIGIL_HTTP_BODY_TIMEOUT_MS: withDefault(
    limit('must be a number of milliseconds (100-600000)', 100, 600_000),
    30_000,
  ),
  VIGIL_SLACK_TIMEOUT_MS: withDefault(
    limit('must be a number of milliseconds (100-120000)', 100, 120_000),
    10_000,
  ),
  VIGIL_HTTP_MAX_CONNECTIONS: withDefault(
    limit('must be a whole number of connections (1-100000)', 1, 100_000),
    512,
  ),
  VIGIL_IDP_ALLOWED_HOSTS: withDefault(text(), 'login.microsoftonline.com,graph.microsoft.com'),
  VIGIL_ENTRA_LOGIN_URL: withDefault(absoluteUrl, 'https://login.microsoftonline.com'),
  VIGIL_GRAPH_URL: withDefault(absoluteUrl, 'https://graph.microsoft.com'),
  VIGIL_CONTAIN_APPROVAL_TTL: withDefault(durationUpTo(7), 3_600_000),
  VIGIL_METRICS: withDefault(oneOf(['1', '0', 'true', 'false'], 'must be 1 or 0'), '0'),
  VIGIL_METRICS_PORT: optional(portNumber),
  VIGIL_METRICS_HOST: withDefault(text(), '127.0.0.1'),
  VIGIL_MCP: withDefault(oneOf(['1', '0', 'true', 'false'], 'must be 1 or 0'), '0'),
  VIGIL_MCP_OAUTH: withDefault(oneOf(['1', '0', 'true', 'false'], 'must be 1 or 0'), '0'),
  LOG_LEVEL: withDefault(oneOf(LOG_LEVELS), 'info'),
  LOG_FORMAT: withDefault(oneOf(LOG_FORMATS), 'text'),
};

/** Cross-field rules, checked on the raw environment so they are reported together with field errors. */
function crossFieldProblems(raw: Record<string, string | undefined>): string[] {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(raw)) env[k] = v?.trim() ? v.trim() : undefined;
  const problems: string[] = [];
  const add = (variable: string, message: string) => problems.push(`${variable}: ${message}`);

  const oauthCount = [env.SLACK_CLIENT_ID, env.SLACK_CLIENT_SECRET, env.SLACK_STATE_SECRET].filter(
    Boolean,
  ).length;
  const mcpOAuth = ['1', 'true'].includes(env.VIGIL_MCP_OAUTH?.toLowerCase() ?? '');
  // Sign in with Slack needs the app's client id and secret, also for a single-workspace install.
  const signInOnly = mcpOAuth && env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET && !env.SLACK_STATE_SECRET;
  if (oauthCount > 0 && oauthCount < 3 && !signInOnly) {
    add(
      'SLACK_CLIENT_ID',
      'multi-workspace install needs all of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET',
    );
  }
  if (oauthCount === 0 && !env.SLACK_BOT_TOKEN) {
    add(
      'SLACK_BOT_TOKEN',
      'set SLACK_BOT_TOKEN (single workspace) or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET (OAuth install)',
    );
  }
  if (!env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
    add('SLACK_SIGNING_SECRET', 'required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)');
  }
  if (env.VIGIL_TENANT_ID && !env.VIGIL_API_KEY) add('VIGIL_TENANT_ID', 'needs VIGIL_API_KEY');
  // The MCP door checks Slack's signature on every request: it needs the signing secret in Socket Mode too.
  if (['1', 'true'].includes(env.VIGIL_MCP?.toLowerCase() ?? '') && !env.SLACK_SIGNING_SECRET) {
    add('VIGIL_MCP', '/mcp verifies Slack-signed requests: set SLACK_SIGNING_SECRET');
  }
  if (mcpOAuth && !['1', 'true'].includes(env.VIGIL_MCP?.toLowerCase() ?? '')) {
    add('VIGIL_MCP_OAUTH', 'needs VIGIL_MCP=1');
  }
  if (mcpOAuth && !(env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET)) {
    add('VIGIL_MCP_OAUTH', 'Sign in with Slack needs SLACK_CLIENT_ID and SLACK_CLIENT_SECRET');
  }
  // Slack's port faces the internet: metrics (workspace counts, error rates) are never served there.
  if (['1', 'true'].includes(env.VIGIL_METRICS?.toLowerCase() ?? '') && !env.VIGIL_METRICS_PORT) {
    add(
      'VIGIL_METRICS',
      '/metrics is served only on VIGIL_METRICS_PORT (on loopback unless VIGIL_METRICS_HOST says otherwise), never on PORT: set VIGIL_METRICS_PORT',
    );
  }
  problems.push(...keyProblems(env));
  if (env.VIGIL_API_KEY && oauthCount > 0) {
    add(
      'VIGIL_API_KEY',
      'pre-connects a single workspace; with OAuth install, connect each workspace with /vigil connect',
    );
  }
  problems.push(
    ...urlProblems(
      'VIGIL_API_URL',
      env.VIGIL_API_URL,
      'VIGIL_API_ALLOWED_HOSTS',
      env.VIGIL_API_ALLOWED_HOSTS ?? 'api.flare.io,api.eu.flare.io',
    ),
  );
  problems.push(...idpProblems(env));
  return problems;
}

/** Identity provider URLs: https (loopback excepted), on a host of VIGIL_IDP_ALLOWED_HOSTS. */
function idpProblems(env: Record<string, string | undefined>): string[] {
  const allowed = env.VIGIL_IDP_ALLOWED_HOSTS ?? 'login.microsoftonline.com,graph.microsoft.com';
  return (['VIGIL_ENTRA_LOGIN_URL', 'VIGIL_GRAPH_URL'] as const).flatMap((name) =>
    urlProblems(name, env[name], 'VIGIL_IDP_ALLOWED_HOSTS', allowed),
  );
}

/** An outbound URL: https on a host of the allow-list `listName`; loopback exempt (simulators, tests). */
function urlProblems(name: string, value: string | undefined, listName: string, list: string): string[] {
  const url = value && URL.canParse(value) ? new URL(value) : undefined;
  if (!url || isLoopbackHost(url.hostname)) return [];
  if (url.protocol !== 'https:') return [`${name}: must use https (loopback excepted)`];
  const allowed = splitList(list).map((h) => h.toLowerCase());
  if (allowed.includes(url.hostname.toLowerCase())) return [];
  return [`${name}: host ${url.hostname} is not in ${listName} (${allowed.join(', ')})`];
}

/**
 * The encryption key is kept apart from the store (a backup of one must not hold the other): given in the
 * environment or in a file, never generated beside the database. Every instance of a Redis store shares it.
 */
function keyProblems(env: Record<string, string | undefined>): string[] {
  if (env.VIGIL_ENCRYPTION_KEY && env.VIGIL_ENCRYPTION_KEY_FILE)
    return ['VIGIL_ENCRYPTION_KEY_FILE: set VIGIL_ENCRYPTION_KEY or VIGIL_ENCRYPTION_KEY_FILE, not both'];
  if (env.VIGIL_ENCRYPTION_KEY || env.VIGIL_ENCRYPTION_KEY_FILE) return [];
  return [
    `VIGIL_ENCRYPTION_KEY: required (or VIGIL_ENCRYPTION_KEY_FILE, a file holding it), kept apart from the store; ${MAKE_KEY}`,
  ];
}

/** Where the encryption key comes from, and the earlier keys that still open what is not yet re-sealed. */
export interface EncryptionConfig {
  key: Buffer | undefined;
  /** VIGIL_ENCRYPTION_KEY_FILE, relative to the working directory. */
  keyFile: string | undefined;
  previous: Buffer[];
}

/** Only what `rotate-key` needs: the store and the keys (no Slack variable). */
export function loadKeyConfig(env: Record<string, string | undefined>): {
  store: Config['store'];
  encryption: EncryptionConfig;
  logLevel: LogLevel;
} {
  const { VIGIL_STORE, VIGIL_INSTANCE_NAME, LOG_LEVEL } = VARIABLES;
  const { VIGIL_ENCRYPTION_KEY, VIGIL_ENCRYPTION_KEY_FILE, VIGIL_ENCRYPTION_KEY_OLD } = VARIABLES;
  const read = readVariables(env, {
    VIGIL_STORE,
    VIGIL_INSTANCE_NAME,
    VIGIL_ENCRYPTION_KEY,
    VIGIL_ENCRYPTION_KEY_FILE,
    VIGIL_ENCRYPTION_KEY_OLD,
    LOG_LEVEL,
  });
  const trimmed = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v?.trim() || undefined]));
  const problems = [...read.problems, ...keyProblems(trimmed)];
  if (read.values === undefined || problems.length > 0) throw new ConfigError(problems);
  const e = read.values;
  return {
    store: { url: e.VIGIL_STORE, instanceName: e.VIGIL_INSTANCE_NAME },
    encryption: encryptionOf(e),
    logLevel: e.LOG_LEVEL,
  };
}

function encryptionOf(e: {
  VIGIL_ENCRYPTION_KEY?: string | undefined;
  VIGIL_ENCRYPTION_KEY_FILE?: string | undefined;
  VIGIL_ENCRYPTION_KEY_OLD?: string | undefined;
}): EncryptionConfig {
  return {
    key: e.VIGIL_ENCRYPTION_KEY ? Buffer.from(e.VIGIL_ENCRYPTION_KEY, 'base64') : undefined,
    keyFile: e.VIGIL_ENCRYPTION_KEY_FILE,
    previous: splitList(e.VIGIL_ENCRYPTION_KEY_OLD).map((k) => Buffer.from(k, 'base64')),
  };
}

type SlackMode =
  | { kind: 'single'; botToken: string }
  | { kind: 'oauth'; clientId: string; clientSecret: string; stateSecret: string };

export interface Config {
  slack: {
    signingSecret: string | undefined;
    appToken: string | undefined;
    mode: SlackMode;
    apiUrl: string;
    /** Each attempt of a Slack call answering people (VIGIL_SLACK_TIMEOUT_MS); see slack/client-options.ts. */
    timeoutMs?: number;
  };
  port: number;
  /** Limits on Vigil's HTTP server: a request body's total deadline, concurrent connections. */
  http: { bodyTimeoutMs: number; maxConnections: number };
  /** Without VIGIL_PUBLIC_URL: http://localhost:<the port Vigil actually listens on> (PORT may be 0). */
  publicUrl: string;
  publicUrlFromPort: boolean;
  /**
   * `instanceName`: how this instance names itself in shared leases (default: the host name). Instances on
   * different hosts that share a host name need distinct ones.
   */
  store: { url: string; instanceName: string | undefined };
  encryption: EncryptionConfig;
  api: {
    baseUrl: string;
    family: string;
    allowedHosts: string[];
  };
  preconnect: { apiKey: string; tenantId: number | undefined } | undefined;
  /** VIGIL_ADMINS: once set, they (with `/vigil settings admins`) administer Vigil, not Slack's admins. */
  admins: VigilAdmins;
  /** VIGIL_DEFAULT_PERMISSIONS: the defaults of the permissions a workspace never set. */
  defaultPermissions: Partial<Record<Permission, Actors>>;
  /** Hosts of the threat-intel portal whose event links unfurl as Work Objects (VIGIL_PORTAL_HOSTS). */
  portalHosts: string[];
  /** How often the digest scheduler looks for due digests (a minute; tests shorten it). */
  digest: { tickMs: number };
  /** How often each workspace's feed is polled for real-time alerts (a minute; tests shorten it). */
  alerts: {
    pollMs: number /** How often posted alerts and digests re-read their events' state. */;
    syncMs: number;
  };
  /** Asking the person a leaked credential belongs to (docs/ask-person.md). */
  askPerson: { cooldownMs: number; perHour: number; escalateMs: number };
  logLevel: LogLevel;
  /** `text` for a person reading a terminal; `json`: one JSON object a line, for a log pipeline. */
  logFormat: LogFormat;
  /** Every outbound call (Slack, Socket Mode, response_url, the API, downloads) goes through it when set. */
  proxy: ProxySettings | undefined;
  /** Largest file sent to the sandbox (VIGIL_SANDBOX_MAX_BYTES). */
  sandbox: { maxBytes: number };
  /** Audit entries kept per workspace (VIGIL_AUDIT_RETENTION); the oldest go first, the log lines stay. */
  audit: { retention: number };
  /**
   * Containment's identity providers: Entra's sign-in and Graph URLs (national clouds, tests), the hosts a
   * provider's credential may go to (VIGIL_IDP_ALLOWED_HOSTS; an Okta org's host must be listed), and how
   * long a request waits for its second approver.
   */
  idp: { entraLoginUrl: string; graphUrl: string; allowedHosts: string[]; approvalTtlMs: number };
  /**
   * `/metrics` (Prometheus): only on a port of its own, when `port` is set (VIGIL_METRICS_PORT, on `host`:
   * loopback unless VIGIL_METRICS_HOST says otherwise), never on Slack's `PORT`. Off otherwise.
   */
  metrics: { port: number | undefined; host: string };
  /** The MCP server at `/mcp` (VIGIL_MCP=1): Slackbot and other MCP clients use Vigil's tools. Off by default. */
  mcp: {
    enabled: boolean;
    /**
     * VIGIL_MCP_OAUTH=1: other MCP clients sign in with OAuth 2.1, Vigil the authorization server and Sign in
     * with Slack the identity (the Slack app's client id and secret).
     */
    oauth: { clientId: string; clientSecret: string } | undefined;
  };
}

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.map((l) => `  - ${l}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const splitList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Parses the environment; throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const read = readVariables(env, VARIABLES);
  const problems = [...read.problems, ...crossFieldProblems(env)];
  const proxy = proxySettings(env, problems);
  if (read.values === undefined || problems.length > 0) throw new ConfigError(problems);
  const e = read.values;
  const allowedHosts = splitList(e.VIGIL_API_ALLOWED_HOSTS).map((h) => h.toLowerCase());
  const mode: SlackMode =
    e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET && e.SLACK_STATE_SECRET
      ? {
          kind: 'oauth',
          clientId: e.SLACK_CLIENT_ID,
          clientSecret: e.SLACK_CLIENT_SECRET,
          stateSecret: e.SLACK_STATE_SECRET,
        }
      : // crossFieldProblems guarantees a bot token when OAuth is not configured.
        { kind: 'single', botToken: e.SLACK_BOT_TOKEN ?? '' };
  return {
    slack: {
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      mode,
      apiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
      timeoutMs: e.VIGIL_SLACK_TIMEOUT_MS,
    },
    port: e.PORT,
    http: { bodyTimeoutMs: e.VIGIL_HTTP_BODY_TIMEOUT_MS, maxConnections: e.VIGIL_HTTP_MAX_CONNECTIONS },
    publicUrl: (e.VIGIL_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlFromPort: e.VIGIL_PUBLIC_URL === undefined,
    store: { url: e.VIGIL_STORE, instanceName: e.VIGIL_INSTANCE_NAME },
    encryption: encryptionOf(e),
    api: { baseUrl: e.VIGIL_API_URL.replace(/\/+$/, ''), family: e.VIGIL_API_FAMILY, allowedHosts },
    preconnect: e.VIGIL_API_KEY ? { apiKey: e.VIGIL_API_KEY, tenantId: e.VIGIL_TENANT_ID } : undefined,
    admins: e.VIGIL_ADMINS,
    defaultPermissions: e.VIGIL_DEFAULT_PERMISSIONS,
    portalHosts: splitList(e.VIGIL_PORTAL_HOSTS).map((h) => h.toLowerCase()),
    digest: { tickMs: e.VIGIL_DIGEST_TICK_MS },
    alerts: { pollMs: e.VIGIL_ALERT_POLL_MS, syncMs: e.VIGIL_STATE_SYNC_MS },
    askPerson: {
      cooldownMs: e.VIGIL_ASK_PERSON_COOLDOWN,
      perHour: e.VIGIL_ASK_PERSON_PER_HOUR,
      escalateMs: e.VIGIL_ASK_PERSON_ESCALATE,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    proxy,
    sandbox: { maxBytes: e.VIGIL_SANDBOX_MAX_BYTES },
    audit: { retention: e.VIGIL_AUDIT_RETENTION },
    idp: {
      entraLoginUrl: e.VIGIL_ENTRA_LOGIN_URL.replace(/\/+$/, ''),
      graphUrl: e.VIGIL_GRAPH_URL.replace(/\/+$/, ''),
      allowedHosts: splitList(e.VIGIL_IDP_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
      approvalTtlMs: e.VIGIL_CONTAIN_APPROVAL_TTL,
    },
    metrics: {
      port: e.VIGIL_METRICS_PORT,
      host: e.VIGIL_METRICS_HOST,
    },
    mcp: {
      enabled: ['1', 'true'].includes(e.VIGIL_MCP.toLowerCase()),
      oauth:
        ['1', 'true'].includes(e.VIGIL_MCP_OAUTH.toLowerCase()) && e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET
          ? { clientId: e.SLACK_CLIENT_ID, clientSecret: e.SLACK_CLIENT_SECRET }
          : undefined,
    },
  };
}
