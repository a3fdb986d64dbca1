/** The logging interface every module takes as a dependency. The implementation redacts secrets. @internal */
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
}

/** Discards everything: the default where a caller passes no logger. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

// ── Redaction ─────────────────────────────────────────────────────────────────────────────────────────

/** @internal */
export const REDACTED = '[REDACTED]';

/** Field names whose values are never logged, compared lower-cased with `_` and `-` removed. */
const SECRET_FIELD_NAMES = new Set([
  'apikey',
  'key',
  'token',
  'authorization',
  'proxyauthorization',
  'password',
  'passwd',
  'secret',
  'cookie',
  'setcookie',
  'responseurl',
  'sealedapikey',
  'clientsecret',
  'signingsecret',
  'statesecret',
  'encryptionkey',
  'privatekey',
  'accesstoken',
  'refreshtoken',
  'bottoken',
  'usertoken',
  'apptoken',
  'xapikey',
  'hash',
]);

/** Suffixes that mark a field as secret whatever its prefix (`botToken`, `stateSecret`, `userPassword`). */
const SECRET_FIELD_SUFFIXES = ['token', 'secret', 'password', 'apikey', 'privatekey'];

/** @internal */
export function isSecretFieldName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[_-]/g, '');
  return (
    SECRET_FIELD_NAMES.has(normalized) || SECRET_FIELD_SUFFIXES.some((suffix) => normalized.endsWith(suffix))
  );
}

/** Shapes of secrets that may turn up inside any text: messages, error stacks, upstream bodies. */
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bxox[abeoprs][.-][A-Za-z0-9][A-Za-z0-9.-]*/g, REDACTED],
  [/\bxapp-[A-Za-z0-9-]+/g, REDACTED],
  [/https:\/\/hooks\.slack(?:-gov)?\.com\/[^\s"'<>]*/g, `https://hooks.slack.com/${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // The password in a URL's user info (a proxy's `http://user:password@proxy:3128`).
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/([?&](?:token|api_?key|key|password|secret|signature|sig)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  // `hash=…`, `password: …` in prose (upstream error texts quote what they were sent).
  [
    /\b((?:hash|password|passwd|pwd|passphrase|secret|api[_-]?key|token)\s*[=:]\s*)(?!\[REDACTED\])("[^"]*"|'[^']*'|[^\s,;&"'<>)}\]]+)/gi,
    `$1${REDACTED}`,
  ],
];

/** Literal secrets shorter than this are not registered: masking them would garble ordinary text. */
const MIN_SECRET_LENGTH = 6;

const registeredSecrets = new Set<string>();
let secretsByLength: string[] = [];

/**
 * Masks `value` wherever it appears in anything logged from now on, by any logger in the process.
 * Returns false when the value is too short to be masked safely.
 */
export function registerSecret(value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  if (!registeredSecrets.has(value)) {
    registeredSecrets.add(value);
    // Longest first, so a secret that contains another is masked whole.
    secretsByLength = [...registeredSecrets].sort((a, b) => b.length - a.length);
  }
  return true;
}

/** Masks registered secrets and known secret shapes inside a string. */
export function redactText(text: string): string {
  let out = text;
  for (const secret of secretsByLength) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) {
    out = out.replace(pattern, replacement);
  }
  return out;
}

const MAX_DEPTH = 8;
const MAX_ARRAY_ITEMS = 100;

/** A JSON-safe, redacted copy of any value. Never throws: cycles, getters that throw and odd types included. */
function redactValue(value: unknown): unknown {
  return sanitize(value, new WeakSet(), 0);
}

function sanitize(value: unknown, ancestors: WeakSet<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return redactText(value);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return undefined;
    case 'symbol':
      return redactText(value.toString());
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.has(obj)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  // Raw bytes may hold anything; their content is never logged.
  if (Buffer.isBuffer(obj) || ArrayBuffer.isView(obj)) return `[Binary ${obj.byteLength} bytes]`;
  ancestors.add(obj);
  try {
    if (obj instanceof Error) return sanitizeError(obj, ancestors, depth);
    if (Array.isArray(obj)) {
      const items = obj.slice(0, MAX_ARRAY_ITEMS).map((item) => sanitize(item, ancestors, depth + 1));
      if (obj.length > MAX_ARRAY_ITEMS) items.push(`[${obj.length - MAX_ARRAY_ITEMS} more]`);
      return items;
    }
    if (obj instanceof Map) return sanitizeEntries([...obj.entries()], ancestors, depth);
    if (obj instanceof Set) return sanitize([...obj], ancestors, depth);
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return sanitize(toJSON.call(obj), ancestors, depth + 1);
    return sanitizeEntries(Object.entries(obj), ancestors, depth);
  } catch {
    return '[Unserializable]';
  } finally {
    ancestors.delete(obj);
  }
}

function sanitizeEntries(
  entries: Array<[unknown, unknown]>,
  ancestors: WeakSet<object>,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, item] of entries) {
    const key = String(rawKey);
    out[key] = isSecretFieldName(key) ? REDACTED : sanitize(item, ancestors, depth + 1);
  }
  return out;
}

function sanitizeError(error: Error, ancestors: WeakSet<object>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: redactText(String(error.name)),
    message: redactText(String(error.message)),
  };
  if (typeof error.stack === 'string') out.stack = redactText(error.stack);
  // Own enumerable extras (code, status, …) are kept, redacted like any field.
  for (const [key, item] of Object.entries(error)) {
    if (key in out || key === 'cause') continue;
    out[key] = isSecretFieldName(key) ? REDACTED : sanitize(item, ancestors, depth + 1);
  }
  if (error.cause !== undefined) out.cause = sanitize(error.cause, ancestors, depth + 1);
  return out;
}

// ── Logger ────────────────────────────────────────────────────────────────────────────────────────────

type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const RESERVED_KEYS = new Set(['time', 'level', 'msg']);

export interface LoggerOptions {
  level?: LogLevelName;
  /** `json` (the default): one JSON object a line. `text`: time, level, message, then `key=value` fields. */
  format?: 'json' | 'text';
  /** Receives each JSON line without a trailing newline. Defaults to process.stdout. */
  write?: (line: string) => void;
  bindings?: LogFields;
  /** Milliseconds since the epoch, for the `time` field. */
  now?: () => number;
}

const writeToStdout = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** A levelled JSON-lines logger that redacts secrets by field name, by registered value and by shape. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LEVEL_RANK[options.level ?? 'info'];
  const write = options.write ?? writeToStdout;
  const now = options.now ?? Date.now;
  const format = options.format === 'text' ? formatText : formatLine;

  const make = (bindings: LogFields): Logger => {
    const log = (level: LogLevelName, msg: string, fields?: LogFields) => {
      if (LEVEL_RANK[level] < threshold) return;
      let line: string;
      try {
        line = format(now(), level, msg, bindings, fields);
      } catch {
        line = JSON.stringify({ time: safeTime(now), level, msg: 'log line could not be serialized' });
      }
      try {
        write(line);
      } catch {
        // A broken output must not take the process down with it.
      }
    };
    return {
      debug: (msg, fields) => log('debug', msg, fields),
      info: (msg, fields) => log('info', msg, fields),
      warn: (msg, fields) => log('warn', msg, fields),
      error: (msg, fields) => log('error', msg, fields),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return make(options.bindings ?? {});
}

function formatLine(
  time: number,
  level: LogLevelName,
  msg: string,
  bindings: LogFields,
  fields: LogFields | undefined,
): string {
  const record: Record<string, unknown> = {
    time: new Date(time).toISOString(),
    level,
    msg: redactText(String(msg)),
  };
  const extra = redactValue({ ...bindings, ...fields }) as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra)) {
    record[RESERVED_KEYS.has(key) ? `_${key}` : key] = value;
  }
  return JSON.stringify(record);
}

/** The same record for a person at a terminal: `time LEVEL message key=value …` (values JSON when not plain). */
function formatText(
  time: number,
  level: LogLevelName,
  msg: string,
  bindings: LogFields,
  fields: LogFields | undefined,
): string {
  const record = JSON.parse(formatLine(time, level, msg, bindings, fields)) as Record<string, unknown>;
  const { time: at, level: _level, msg: text, ...rest } = record;
  const pairs = Object.entries(rest).map(([key, value]) => {
    const plain = typeof value === 'string' && /^[^\s"=]+$/.test(value);
    return `${key}=${plain ? value : JSON.stringify(value)}`;
  });
  return [String(at), level.toUpperCase().padEnd(5), String(text), ...pairs].join(' ');
}

function safeTime(now: () => number): string {
  try {
    return new Date(now()).toISOString();
  } catch {
    return new Date().toISOString();
  }
}
