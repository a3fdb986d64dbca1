import { describe, expect, it } from 'vitest';
import {
  createLogger,
  isSecretFieldName,
  type LoggerOptions,
  REDACTED,
  redactText,
  registerSecret,
  silentLogger,
} from '../../src/kernel/logger.js';

function capture(options: Omit<LoggerOptions, 'write'> = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    ...options,
    write: (line) => lines.push(line),
    now: () => Date.UTC(2026, 0, 2),
  });
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON lines are inspected freely by the assertions
  const records = (): any[] => lines.map((line) => JSON.parse(line));
  return { logger, lines, records };
}

describe('createLogger', () => {
  it('writes one JSON line per call with time, level, msg and fields', () => {
    const { logger, lines, records } = capture();
    logger.info('workspace connected', { teamId: 'T1', tenantId: 42 });
    expect(lines).toHaveLength(1);
    expect(records()[0]).toEqual({
      time: '2026-01-02T00:00:00.000Z',
      level: 'info',
      msg: 'workspace connected',
      teamId: 'T1',
      tenantId: 42,
    });
  });

  it('drops lines below the configured level', () => {
    const { logger, records } = capture({ level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(records().map((r) => r.level)).toEqual(['warn', 'error']);
  });

  it('defaults to info', () => {
    const { logger, records } = capture();
    logger.debug('hidden');
    logger.info('shown');
    expect(records().map((r) => r.msg)).toEqual(['shown']);
  });

  it('children carry their bindings, nested bindings accumulate, fields win over bindings', () => {
    const { logger, records } = capture({ bindings: { app: 'vigil' } });
    const child = logger.child({ teamId: 'T1' }).child({ requestId: 'r-1' });
    child.info('hello', { requestId: 'r-2' });
    logger.info('parent');
    expect(records()[0]).toMatchObject({ app: 'vigil', teamId: 'T1', requestId: 'r-2', msg: 'hello' });
    expect(records()[1]).not.toHaveProperty('teamId');
  });

  it('keeps time, level and msg authoritative when a field collides with them', () => {
    const { logger, records } = capture();
    logger.warn('real message', { msg: 'field message', level: 'debug' });
    expect(records()[0]).toMatchObject({
      level: 'warn',
      msg: 'real message',
      _msg: 'field message',
      _level: 'debug',
    });
  });

  it('redacts secret fields by name, case-insensitively and at any depth', () => {
    const { logger, lines, records } = capture();
    logger.info('request', {
      apiKey: 'plain-api-key-1',
      nested: {
        API_KEY: 'plain-api-key-2',
        headers: { Authorization: 'Basic abcdef', cookie: 'sid=1' },
        list: [{ token: 'tok-value-123' }, { password: 'hunter2hunter2' }],
      },
      response_url: 'https://example.test/respond',
      responseUrl: 'https://example.test/respond2',
      sealedApiKey: 'v1.abcd.xyz',
      client_secret: 'cs-1234567',
      signingSecret: 'ss-1234567',
      botToken: 'bt-1234567',
      apiKeyId: 123,
    });
    const record = records()[0];
    expect(record.apiKey).toBe(REDACTED);
    expect(record.nested.API_KEY).toBe(REDACTED);
    expect(record.nested.headers).toEqual({ Authorization: REDACTED, cookie: REDACTED });
    expect(record.nested.list).toEqual([{ token: REDACTED }, { password: REDACTED }]);
    expect(record.response_url).toBe(REDACTED);
    expect(record.responseUrl).toBe(REDACTED);
    expect(record.sealedApiKey).toBe(REDACTED);
    expect(record.client_secret).toBe(REDACTED);
    expect(record.signingSecret).toBe(REDACTED);
    expect(record.botToken).toBe(REDACTED);
    expect(record.apiKeyId).toBe(123);
    for (const secret of [
      'plain-api-key',
      'abcdef',
      'sid=1',
      'tok-value',
      'hunter2',
      'example.test',
      'cs-12',
    ]) {
      expect(lines[0]).not.toContain(secret);
    }
  });

  it('masks registered secret values wherever they appear, messages included', () => {
    const secret = `registered-${Math.random().toString(36).slice(2)}-secret`;
    expect(registerSecret(secret)).toBe(true);
    const { logger, lines, records } = capture();
    logger.error(`upstream said: bad key ${secret}!`, {
      body: `{"detail":"key ${secret} revoked"}`,
      deep: { deeper: [{ text: `x${secret}y` }] },
      err: new Error(`failed with ${secret}`),
    });
    expect(lines[0]).not.toContain(secret);
    const record = records()[0];
    expect(record.msg).toBe(`upstream said: bad key ${REDACTED}!`);
    expect(record.deep.deeper[0].text).toBe(`x${REDACTED}y`);
    expect(record.err.message).toBe(`failed with ${REDACTED}`);
  });

  it('refuses to register values too short to mask safely', () => {
    expect(registerSecret('abc')).toBe(false);
    expect(redactText('abc abc')).toBe('abc abc');
  });

  it('masks secret shapes: Slack tokens, response URLs, Bearer tokens, JWTs, secret query parameters', () => {
    const { logger, lines } = capture();
    const samples = [
      'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp',
      'xoxp-11-22-33-abcdef',
      'xoxe.xoxp-1-Mi0yLTE0',
      'xapp-1-A0123-456-abcdef0123',
      'https://hooks.slack.com/commands/T000/1234/AbCdEf',
      'https://hooks.slack.com/actions/T000/1234/ZyXw',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl',
    ];
    logger.info(`tokens: ${samples.join(' ')}`, {
      header: 'Bearer abc.def-ghi',
      url: 'https://x.test/a?token=zz9&b=1',
    });
    for (const sample of samples) expect(lines[0]).not.toContain(sample);
    expect(lines[0]).not.toContain('abc.def-ghi');
    expect(lines[0]).not.toContain('zz9');
    expect(lines[0]).toContain('Bearer [REDACTED]');
    expect(lines[0]).toContain('https://hooks.slack.com/[REDACTED]');
    expect(lines[0]).toContain('?token=[REDACTED]&b=1');
  });

  it('logs errors with name, message and a redacted stack, including causes and extra properties', () => {
    const { logger, records } = capture();
    const cause = new TypeError('socket hang up');
    const error = Object.assign(new Error('call failed with xoxb-111-222-abcdefgh', { cause }), {
      code: 'E_UPSTREAM',
      token: 'xyz-secret-token',
    });
    logger.error('boom', { error });
    const logged = records()[0].error;
    expect(logged.name).toBe('Error');
    expect(logged.message).toBe(`call failed with ${REDACTED}`);
    expect(logged.stack).toContain('call failed with [REDACTED]');
    expect(logged.stack).not.toContain('xoxb-111');
    expect(logged.code).toBe('E_UPSTREAM');
    expect(logged.token).toBe(REDACTED);
    expect(logged.cause).toMatchObject({ name: 'TypeError', message: 'socket hang up' });
  });

  it('never throws: cyclic objects, throwing getters, odd types and a throwing writer', () => {
    const { logger, records } = capture();
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    const hostile = {
      get boom() {
        throw new Error('getter');
      },
    };
    expect(() =>
      logger.info('odd', {
        cyclic,
        hostile,
        big: 10n,
        fn: function named() {},
        nan: Number.NaN,
        buf: Buffer.from('secret bytes'),
        date: new Date(Date.UTC(2026, 0, 1)),
        map: new Map([['token', 'm-secret-1']]),
        url: new URL('https://hooks.slack.com/actions/T1/2/3'),
      }),
    ).not.toThrow();
    const record = records()[0];
    expect(record.cyclic).toEqual({ name: 'a', self: '[Circular]' });
    expect(record.hostile).toBe('[Unserializable]');
    expect(record.big).toBe('10');
    expect(record.fn).toBe('[Function named]');
    expect(record.nan).toBe('NaN');
    expect(record.buf).toBe('[Binary 12 bytes]');
    expect(record.date).toBe('2026-01-01T00:00:00.000Z');
    expect(record.map).toEqual({ token: REDACTED });
    expect(record.url).toBe('https://hooks.slack.com/[REDACTED]');

    const broken = createLogger({
      write: () => {
        throw new Error('EPIPE');
      },
    });
    expect(() => broken.error('still fine')).not.toThrow();
  });

  it('names secret fields without catching ordinary ones', () => {
    for (const name of [
      'apiKey',
      'api-key',
      'KEY',
      'stateSecret',
      'user_password',
      'accessToken',
      'Set-Cookie',
    ]) {
      expect(isSecretFieldName(name)).toBe(true);
    }
    for (const name of ['apiKeyId', 'keyId', 'teamId', 'tokenType', 'message', 'tenantName']) {
      expect(isSecretFieldName(name)).toBe(false);
    }
  });

  it('silentLogger stays a no-op whose children are silent too', () => {
    expect(silentLogger.child({ a: 1 })).toBe(silentLogger);
    expect(() => silentLogger.error('nothing', { apiKey: 'x' })).not.toThrow();
  });
});

describe('LOG_FORMAT', () => {
  it('json: one JSON object a line; text: time, level, message and key=value fields, redacted alike', () => {
    const json = capture({ format: 'json' });
    const text = capture({ format: 'text' });
    for (const { logger } of [json, text]) {
      logger.child({ component: 'store' }).warn('store unavailable', {
        error: 'Error: connect ECONNREFUSED',
        token: 'xoxb-1234567890-secret',
        downMs: 20_000,
      });
    }
    expect(json.records()).toEqual([
      {
        time: '2026-01-02T00:00:00.000Z',
        level: 'warn',
        msg: 'store unavailable',
        component: 'store',
        error: 'Error: connect ECONNREFUSED',
        token: REDACTED,
        downMs: 20000,
      },
    ]);
    expect(text.lines).toEqual([
      `2026-01-02T00:00:00.000Z WARN  store unavailable component=store error="Error: connect ECONNREFUSED" token=${REDACTED} downMs=20000`,
    ]);
  });

  it('masks the password of a URL (a proxy with credentials)', () => {
    expect(redactText('via http://vigil:hunter2hunter2@proxy.corp:3128 failed')).toBe(
      `via http://vigil:${REDACTED}@proxy.corp:3128 failed`,
    );
  });
});
