import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadKeyConfig } from '../../src/app/config.js';

const KEY = Buffer.alloc(32, 9).toString('base64');
const single = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'secret', VIGIL_ENCRYPTION_KEY: KEY };

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.lines;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig(single);
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.publicUrlFromPort).toBe(true);
    expect(c.store.url).toBe('sqlite://data/vigil.sqlite');
    expect(c.api).toEqual({
      baseUrl: 'https://api.flare.io',
      family: 'firework',
      allowedHosts: ['api.flare.io', 'api.eu.flare.io'],
    });
    expect(c.slack.apiUrl).toBe('https://slack.com/api/');
    expect(c.slack.mode).toEqual({ kind: 'single', botToken: 'xoxb-1-2-abc' });
    expect(c.logLevel).toBe('info');
    expect(c.encryption).toEqual({ key: Buffer.from(KEY, 'base64'), keyFile: undefined, previous: [] });
    expect(c.preconnect).toBeUndefined();
    expect(c.http).toEqual({ bodyTimeoutMs: 30_000, maxConnections: 512 });
  });

  it('reads the HTTP limits and refuses values out of range', () => {
    const c = loadConfig({ ...single, VIGIL_HTTP_BODY_TIMEOUT_MS: '5000', VIGIL_HTTP_MAX_CONNECTIONS: '64' });
    expect(c.http).toEqual({ bodyTimeoutMs: 5000, maxConnections: 64 });
    expect(
      problems({ ...single, VIGIL_HTTP_BODY_TIMEOUT_MS: '30s', VIGIL_HTTP_MAX_CONNECTIONS: '0' }),
    ).toEqual([
      'VIGIL_HTTP_BODY_TIMEOUT_MS: must be a number of milliseconds (100-600000)',
      'VIGIL_HTTP_MAX_CONNECTIONS: must be a whole number of connections (1-100000)',
    ]);
  });

  it('reads the interactive Slack client bound (10 s by default) and refuses values out of range', () => {
    expect(loadConfig(single).slack.timeoutMs).toBe(10_000);
    expect(loadConfig({ ...single, VIGIL_SLACK_TIMEOUT_MS: '300' }).slack.timeoutMs).toBe(300);
    for (const bad of ['10s', '50', '600000']) {
      expect(problems({ ...single, VIGIL_SLACK_TIMEOUT_MS: bad })).toEqual([
        'VIGIL_SLACK_TIMEOUT_MS: must be a number of milliseconds (100-120000)',
      ]);
    }
  });

  it('reads the sandbox size cap (100 MB by default) and refuses anything but a byte count', () => {
    expect(loadConfig(single).sandbox.maxBytes).toBe(100 * 1024 * 1024);
    expect(loadConfig({ ...single, VIGIL_SANDBOX_MAX_BYTES: '2048' }).sandbox.maxBytes).toBe(2048);
    for (const bad of ['0', '-1', '1.5', 'lots']) {
      expect(problems({ ...single, VIGIL_SANDBOX_MAX_BYTES: bad })).toEqual([
        'VIGIL_SANDBOX_MAX_BYTES: must be a number of bytes (a positive integer)',
      ]);
    }
  });

  it('reads every variable', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const c = loadConfig({
      SLACK_APP_TOKEN: 'xapp-1-A-1-x',
      SLACK_CLIENT_ID: 'id',
      SLACK_CLIENT_SECRET: 'cs',
      SLACK_STATE_SECRET: 'ss',
      SLACK_API_URL: 'http://127.0.0.1:9999/api',
      PORT: '8080',
      VIGIL_PUBLIC_URL: 'https://vigil.example.com/',
      VIGIL_STORE: 'redis://localhost:6379',
      VIGIL_ENCRYPTION_KEY: key,
      VIGIL_API_URL: 'http://127.0.0.1:4000',
      VIGIL_API_FAMILY: 'core',
      VIGIL_API_ALLOWED_HOSTS: 'api.flare.io, API.EU.FLARE.IO',
      VIGIL_ADMINS: 'U1, U2, group:s0secops1',
      VIGIL_DEFAULT_PERMISSIONS: 'use=group:S0SECOPS1, creds=admins, Intel=everyone',
      LOG_LEVEL: 'DEBUG',
    });
    expect(c.slack.mode).toEqual({ kind: 'oauth', clientId: 'id', clientSecret: 'cs', stateSecret: 'ss' });
    expect(c.slack.appToken).toBe('xapp-1-A-1-x');
    expect(c.slack.apiUrl).toBe('http://127.0.0.1:9999/api/');
    expect(c.port).toBe(8080);
    expect(c.publicUrl).toBe('https://vigil.example.com');
    expect(c.publicUrlFromPort).toBe(false);
    expect(c.store.url).toBe('redis://localhost:6379');
    expect(c.encryption.key?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(c.api).toEqual({
      baseUrl: 'http://127.0.0.1:4000',
      family: 'core',
      allowedHosts: ['api.flare.io', 'api.eu.flare.io'],
    });
    expect(c.admins).toEqual({ users: ['U1', 'U2'], usergroups: ['S0SECOPS1'] });
    expect(c.defaultPermissions).toEqual({
      use: { usergroup: 'S0SECOPS1' },
      creds: 'admins',
      intel: 'everyone',
    });
    expect(c.logLevel).toBe('debug');
  });

  it('pre-connects a single workspace from the environment', () => {
    const c = loadConfig({ ...single, VIGIL_API_KEY: 'k', VIGIL_TENANT_ID: '12' });
    expect(c.preconnect).toEqual({ apiKey: 'k', tenantId: 12 });
  });

  it('reports every problem at once, one line each, naming the variable', () => {
    const lines = problems({
      SLACK_BOT_TOKEN: 'not-a-bot-token',
      PORT: 'eighty',
      VIGIL_STORE: 'postgres://x',
      VIGIL_ENCRYPTION_KEY: 'short',
      LOG_LEVEL: 'loud',
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SLACK_BOT_TOKEN: .*xoxb-/),
        expect.stringMatching(/^PORT: /),
        expect.stringMatching(/^VIGIL_STORE: .*sqlite:\/\//),
        expect.stringMatching(/^VIGIL_ENCRYPTION_KEY: .*32 bytes/),
        expect.stringMatching(/^LOG_LEVEL: /),
        expect.stringMatching(/^SLACK_SIGNING_SECRET: .*HTTP mode/),
      ]),
    );
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('stops on administrators or default permissions it cannot read, one line each', () => {
    const lines = (env: Record<string, string>) => problems({ ...single, ...env });
    expect(lines({ VIGIL_ADMINS: 'U1, secops' })).toEqual([
      expect.stringMatching(/^VIGIL_ADMINS: must be user ids \(U…\) and group:<user group id>.*"secops"/),
    ]);
    expect(lines({ VIGIL_DEFAULT_PERMISSIONS: 'use=group:S0SECOPS1,rule=admins' })).toEqual([
      expect.stringMatching(/^VIGIL_DEFAULT_PERMISSIONS: rule is not a permission/),
    ]);
    expect(lines({ VIGIL_DEFAULT_PERMISSIONS: 'creds=security' })).toEqual([
      'VIGIL_DEFAULT_PERMISSIONS: creds must be everyone, admins or group:<usergroup id>',
    ]);
  });

  it('needs a way to reach Slack', () => {
    expect(problems({ SLACK_SIGNING_SECRET: 's', VIGIL_ENCRYPTION_KEY: KEY })).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: set SLACK_BOT_TOKEN/),
    ]);
    expect(problems({ ...single, SLACK_CLIENT_ID: 'x' })).toEqual([
      expect.stringMatching(/^SLACK_CLIENT_ID: .*all of/),
    ]);
  });

  it('refuses plain-http and unlisted API hosts, but allows loopback', () => {
    expect(problems({ ...single, VIGIL_API_URL: 'http://api.flare.io' })).toEqual([
      expect.stringMatching(/^VIGIL_API_URL: .*https/),
    ]);
    expect(problems({ ...single, VIGIL_API_URL: 'https://evil.example.com' })).toEqual([
      expect.stringMatching(/^VIGIL_API_URL: host evil\.example\.com is not in VIGIL_API_ALLOWED_HOSTS/),
    ]);
    expect(loadConfig({ ...single, VIGIL_API_URL: 'http://localhost:8787' }).api.baseUrl).toBe(
      'http://localhost:8787',
    );
    expect(loadConfig({ ...single, VIGIL_API_URL: 'https://api.eu.flare.io/' }).api.baseUrl).toBe(
      'https://api.eu.flare.io',
    );
  });

  it('treats empty strings as unset', () => {
    const c = loadConfig({ ...single, PORT: '', VIGIL_API_KEY: '  ', LOG_LEVEL: '' });
    expect(c.port).toBe(3000);
    expect(c.preconnect).toBeUndefined();
    expect(c.logLevel).toBe('info');
  });

  it('needs an encryption key kept apart from the store, and says how to make one', () => {
    const { VIGIL_ENCRYPTION_KEY: _none, ...keyless } = single;
    for (const store of ['sqlite://data/vigil.sqlite', 'redis://localhost:6379']) {
      const lines = problems({ ...keyless, VIGIL_STORE: store });
      expect(lines).toEqual([
        expect.stringMatching(
          /^VIGIL_ENCRYPTION_KEY: required \(or VIGIL_ENCRYPTION_KEY_FILE.*openssl rand -base64 32/,
        ),
      ]);
    }
    expect(loadConfig({ ...keyless, VIGIL_ENCRYPTION_KEY_FILE: '/etc/vigil/key' }).encryption).toEqual({
      key: undefined,
      keyFile: '/etc/vigil/key',
      previous: [],
    });
    expect(problems({ ...single, VIGIL_ENCRYPTION_KEY_FILE: '/etc/vigil/key' })).toEqual([
      expect.stringMatching(
        /^VIGIL_ENCRYPTION_KEY_FILE: set VIGIL_ENCRYPTION_KEY or VIGIL_ENCRYPTION_KEY_FILE, not both/,
      ),
    ]);
  });

  it('reads the earlier keys of a rotation, and refuses a malformed one', () => {
    const old = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const c = loadConfig({
      ...single,
      VIGIL_ENCRYPTION_KEY_OLD: old.map((k) => k.toString('base64')).join(', '),
    });
    expect(c.encryption.previous).toEqual(old);
    expect(problems({ ...single, VIGIL_ENCRYPTION_KEY_OLD: `${KEY},short` })).toEqual([
      expect.stringMatching(/^VIGIL_ENCRYPTION_KEY_OLD: must be earlier keys/),
    ]);
  });

  it('refuses a tenant without a key', () => {
    expect(problems({ ...single, VIGIL_TENANT_ID: '3' })).toEqual([
      expect.stringMatching(/^VIGIL_TENANT_ID: /),
    ]);
  });
});

describe('reading values', () => {
  it('reads numbers as JavaScript does, trimmed, and refuses anything but a whole number in range', () => {
    expect(loadConfig({ ...single, PORT: ' 8080 ' }).port).toBe(8080);
    expect(loadConfig({ ...single, VIGIL_AUDIT_RETENTION: '1e3' }).audit.retention).toBe(1000);
    for (const bad of ['eighty', '80.5', '-1', '65536', 'Infinity', '0x']) {
      expect(problems({ ...single, PORT: bad })).toEqual(['PORT: must be a port number (0-65535)']);
    }
    expect(problems({ ...single, VIGIL_TENANT_ID: '0', VIGIL_API_KEY: 'k' })).toEqual([
      'VIGIL_TENANT_ID: must be a tenant id (a positive integer)',
    ]);
  });

  it('says which bound a tick interval missed, and what it must be when it is no number', () => {
    expect(loadConfig({ ...single, VIGIL_ALERT_POLL_MS: '5000' }).alerts.pollMs).toBe(5000);
    expect(
      problems({
        ...single,
        VIGIL_DIGEST_TICK_MS: '999',
        VIGIL_ALERT_POLL_MS: '3600001',
        VIGIL_STATE_SYNC_MS: 'hourly',
        VIGIL_AUDIT_RETENTION: '99',
      }),
    ).toEqual([
      'VIGIL_DIGEST_TICK_MS: must be at least 1000 ms',
      'VIGIL_ALERT_POLL_MS: must be at most 3600000 ms (an hour)',
      'VIGIL_STATE_SYNC_MS: must be milliseconds between re-reads of posted events (1000 to 86400000)',
      'VIGIL_AUDIT_RETENTION: must be at least 100 entries',
    ]);
  });

  it('reads choices in any case and refuses the others naming them', () => {
    expect(loadConfig({ ...single, VIGIL_METRICS: ' TRUE ', VIGIL_METRICS_PORT: '9464' }).metrics.port).toBe(
      9464,
    );
    expect(problems({ ...single, LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL: must be one of debug, info, warn, error',
    ]);
  });

  it('refuses a store, an instance name, portal hosts or an API family it cannot use', () => {
    expect(
      problems({
        ...single,
        VIGIL_STORE: 'postgres://db',
        VIGIL_INSTANCE_NAME: 'a b',
        VIGIL_PORTAL_HOSTS: 'app.flare.io;x',
        VIGIL_API_FAMILY: 'a/b',
        VIGIL_PUBLIC_URL: 'vigil.example.com',
      }),
    ).toEqual([
      'VIGIL_PUBLIC_URL: must be an absolute URL',
      'VIGIL_STORE: must start with sqlite://, redis:// or rediss://',
      'VIGIL_INSTANCE_NAME: must be 1-100 letters, digits, dots, dashes or underscores',
      'VIGIL_API_FAMILY: must be a single path segment such as firework or core',
      'VIGIL_PORTAL_HOSTS: must be host names, comma-separated (app.flare.io)',
    ]);
  });
});

describe('loadKeyConfig (rotate-key)', () => {
  it('reads only the store and the keys, with no Slack variable', () => {
    const old = Buffer.alloc(32, 1);
    const c = loadKeyConfig({
      VIGIL_STORE: 'redis://localhost:6379',
      VIGIL_ENCRYPTION_KEY: KEY,
      VIGIL_ENCRYPTION_KEY_OLD: old.toString('base64'),
      LOG_LEVEL: 'warn',
    });
    expect(c).toEqual({
      store: { url: 'redis://localhost:6379', instanceName: undefined },
      encryption: { key: Buffer.from(KEY, 'base64'), keyFile: undefined, previous: [old] },
      logLevel: 'warn',
    });
  });

  it('lists every problem, the missing key with how to make one', () => {
    let lines: string[] = [];
    try {
      loadKeyConfig({ VIGIL_STORE: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (err) {
      if (err instanceof ConfigError) lines = err.lines;
    }
    expect(lines).toEqual([
      'VIGIL_STORE: must start with sqlite://, redis:// or rediss://',
      'LOG_LEVEL: must be one of debug, info, warn, error',
      expect.stringMatching(/^VIGIL_ENCRYPTION_KEY: required .*openssl rand -base64 32/),
    ]);
  });
});

describe('LOG_FORMAT', () => {
  it('is text unless json is asked for; anything else is refused in one line', () => {
    expect(loadConfig(single).logFormat).toBe('text');
    expect(loadConfig({ ...single, LOG_FORMAT: ' JSON ' }).logFormat).toBe('json');
    expect(problems({ ...single, LOG_FORMAT: 'yaml' })).toEqual(['LOG_FORMAT: must be one of text, json']);
  });
});

describe('containment settings', () => {
  it('default to Microsoft’s public cloud, an hour to approve, and its two hosts', () => {
    const c = loadConfig(single);
    expect(c.idp).toEqual({
      entraLoginUrl: 'https://login.microsoftonline.com',
      graphUrl: 'https://graph.microsoft.com',
      allowedHosts: ['login.microsoftonline.com', 'graph.microsoft.com'],
      approvalTtlMs: 3_600_000,
    });
    expect(loadConfig({ ...single, VIGIL_CONTAIN_APPROVAL_TTL: '30m' }).idp.approvalTtlMs).toBe(1_800_000);
  });

  it('take a national cloud only on an allowed https host (loopback exempt), and a sane approval time', () => {
    expect(problems({ ...single, VIGIL_GRAPH_URL: 'https://graph.microsoft.us' })).toEqual([
      'VIGIL_GRAPH_URL: host graph.microsoft.us is not in VIGIL_IDP_ALLOWED_HOSTS (login.microsoftonline.com, graph.microsoft.com)',
    ]);
    expect(
      problems({
        ...single,
        VIGIL_GRAPH_URL: 'https://graph.microsoft.us',
        VIGIL_ENTRA_LOGIN_URL: 'https://login.microsoftonline.us',
        VIGIL_IDP_ALLOWED_HOSTS: 'graph.microsoft.us,login.microsoftonline.us',
      }),
    ).toEqual([]);
    expect(problems({ ...single, VIGIL_ENTRA_LOGIN_URL: 'http://login.example' })).toEqual([
      'VIGIL_ENTRA_LOGIN_URL: must use https (loopback excepted)',
    ]);
    expect(problems({ ...single, VIGIL_GRAPH_URL: 'http://127.0.0.1:9999' })).toEqual([]);
    expect(problems({ ...single, VIGIL_CONTAIN_APPROVAL_TTL: '5s' })[0]).toMatch(
      /^VIGIL_CONTAIN_APPROVAL_TTL: must be a duration/,
    );
  });
});
