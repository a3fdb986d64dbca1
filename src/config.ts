/**
 * The environment contract of DESIGN §2, parsed once at start-up from an env object passed in.
 * A bad value stops start-up with one clear line per problem (`ConfigError.lines`).
 */
import { z } from 'zod';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const urlString = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => URL.canParse(v), { message: `${what} must be an absolute URL` });

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const EnvSchema = z
  .object({
    SLACK_SIGNING_SECRET: optionalString,
    SLACK_BOT_TOKEN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^xoxb-/, 'SLACK_BOT_TOKEN must be a bot token starting with xoxb-')
        .optional(),
    ),
    SLACK_APP_TOKEN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^xapp-/, 'SLACK_APP_TOKEN must be an app-level token starting with xapp-')
        .optional(),
    ),
    SLACK_CLIENT_ID: optionalString,
    SLACK_CLIENT_SECRET: optionalString,
    SLACK_STATE_SECRET: optionalString,
    SLACK_API_URL: z.preprocess(
      emptyToUndefined,
      urlString('SLACK_API_URL').default('https://slack.com/api/'),
    ),
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    VIGIL_PUBLIC_URL: z.preprocess(emptyToUndefined, urlString('VIGIL_PUBLIC_URL').optional()),
    VIGIL_STORE: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .default('sqlite://data/vigil.sqlite')
        .refine((v) => /^(sqlite|redis|rediss):\/\//.test(v), {
          message: 'VIGIL_STORE must start with sqlite://, redis:// or rediss://',
        }),
    ),
    VIGIL_ENCRYPTION_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine((v) => Buffer.from(v, 'base64').length === 32, {
          message:
            'VIGIL_ENCRYPTION_KEY must be 32 bytes in base64 (generate one with: openssl rand -base64 32)',
        })
        .optional(),
    ),
    VIGIL_API_URL: z.preprocess(emptyToUndefined, urlString('VIGIL_API_URL').default('https://api.flare.io')),
    VIGIL_API_FAMILY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^[a-z0-9_-]+$/i, 'VIGIL_API_FAMILY must be a single path segment such as firework or core')
        .default('firework'),
    ),
    VIGIL_API_ALLOWED_HOSTS: z.preprocess(
      emptyToUndefined,
      z.string().default('api.flare.io,api.eu.flare.io'),
    ),
    VIGIL_API_KEY: optionalString,
    VIGIL_TENANT_ID: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
    VIGIL_ADMINS: z.preprocess(emptyToUndefined, z.string().optional()),
    LOG_LEVEL: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
      z.enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
  })
  .superRefine((env, ctx) => {
    const oauth = [env.SLACK_CLIENT_ID, env.SLACK_CLIENT_SECRET, env.SLACK_STATE_SECRET];
    const oauthCount = oauth.filter(Boolean).length;
    if (oauthCount > 0 && oauthCount < 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_CLIENT_ID'],
        message:
          'multi-workspace install needs all of SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET',
      });
    }
    if (oauthCount === 0 && !env.SLACK_BOT_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_BOT_TOKEN'],
        message:
          'set SLACK_BOT_TOKEN (single workspace) or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET (OAuth install)',
      });
    }
    if (!env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_SIGNING_SECRET'],
        message: 'SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
      });
    }
    if (env.VIGIL_TENANT_ID !== undefined && !env.VIGIL_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['VIGIL_TENANT_ID'],
        message: 'VIGIL_TENANT_ID needs VIGIL_API_KEY',
      });
    }
    if (env.VIGIL_API_KEY && oauthCount > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['VIGIL_API_KEY'],
        message:
          'VIGIL_API_KEY pre-connects a single workspace; with OAuth install, connect each workspace with /vigil connect',
      });
    }
    const apiUrl = new URL(env.VIGIL_API_URL);
    if (apiUrl.protocol !== 'https:' && !isLoopbackHost(apiUrl.hostname)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VIGIL_API_URL'],
        message: 'VIGIL_API_URL must use https (loopback excepted)',
      });
    }
  });

export type SlackMode =
  | { kind: 'single'; botToken: string }
  | { kind: 'oauth'; clientId: string; clientSecret: string; stateSecret: string };

export interface Config {
  slack: {
    signingSecret: string | undefined;
    appToken: string | undefined;
    mode: SlackMode;
    apiUrl: string;
  };
  port: number;
  publicUrl: string;
  store: { url: string };
  encryptionKey: Buffer | undefined;
  api: {
    baseUrl: string;
    family: string;
    allowedHosts: string[];
  };
  preconnect: { apiKey: string; tenantId: number | undefined } | undefined;
  admins: string[];
  logLevel: LogLevel;
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
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const apiUrl = new URL(e.VIGIL_API_URL);
  const allowedHosts = splitList(e.VIGIL_API_ALLOWED_HOSTS).map((h) => h.toLowerCase());
  if (!allowedHosts.includes(apiUrl.hostname.toLowerCase()) && !isLoopbackHost(apiUrl.hostname)) {
    throw new ConfigError([
      `VIGIL_API_URL: host ${apiUrl.hostname} is not in VIGIL_API_ALLOWED_HOSTS (${allowedHosts.join(', ')})`,
    ]);
  }
  const mode: SlackMode =
    e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET && e.SLACK_STATE_SECRET
      ? {
          kind: 'oauth',
          clientId: e.SLACK_CLIENT_ID,
          clientSecret: e.SLACK_CLIENT_SECRET,
          stateSecret: e.SLACK_STATE_SECRET,
        }
      : // superRefine guarantees a bot token when OAuth is not configured.
        { kind: 'single', botToken: e.SLACK_BOT_TOKEN ?? '' };
  return {
    slack: {
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      mode,
      apiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
    },
    port: e.PORT,
    publicUrl: (e.VIGIL_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    store: { url: e.VIGIL_STORE },
    encryptionKey: e.VIGIL_ENCRYPTION_KEY ? Buffer.from(e.VIGIL_ENCRYPTION_KEY, 'base64') : undefined,
    api: { baseUrl: e.VIGIL_API_URL.replace(/\/+$/, ''), family: e.VIGIL_API_FAMILY, allowedHosts },
    preconnect: e.VIGIL_API_KEY ? { apiKey: e.VIGIL_API_KEY, tenantId: e.VIGIL_TENANT_ID } : undefined,
    admins: splitList(e.VIGIL_ADMINS),
    logLevel: e.LOG_LEVEL,
  };
}
