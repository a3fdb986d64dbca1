/**
 * A simulated Microsoft Entra ID: the identity platform's client-credentials token endpoint and the Microsoft
 * Graph v1.0 operations containment uses, on 127.0.0.1. Every request is held to the published documents
 * (contract.ts over graph-openapi.json and entra-token-openapi.json); the app's application permissions decide
 * what Graph allows (403 Authorization_RequestDenied otherwise), as in a real tenant. Faults on demand: the
 * next calls answer 429 with Retry-After or 503, or the server drops connections ("down").
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallClock } from '../defaults.js';
import { Contract, type Violation } from './contract.js';

export interface SimDirectoryUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
  mail: string | null;
  accountEnabled: boolean;
  userType: 'Member' | 'Guest';
  lastSignInDateTime?: string;
  risk?: { riskLevel: string; riskState: string };
}

export interface SimEntraOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Application permissions granted to the app (admin consent given). */
  roles?: string[];
  users?: SimDirectoryUser[];
  /** Token lifetimes and expiry; real time unless given. */
  now?: () => number;
}

export interface SimEntra {
  url: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  users: SimDirectoryUser[];
  roles: string[];
  /** Every Graph call that passed the contract, in order (the token endpoint's are in `tokenCalls`). */
  calls: { operationId: string; path: string }[];
  tokenCalls: number;
  violations: Violation[];
  /** The next `times` Graph calls answer `status` (429 with Retry-After, 503…). */
  failNext(status: number, opts?: { retryAfter?: number; times?: number }): void;
  /** Drops every connection while true: the provider is down. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** The application permission (any of) each operation needs, from Graph's permission reference. */
const NEEDS: Record<string, string[]> = {
  'user.ListUser': ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  'user.GetUser': ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  'user.UpdateUser': ['User.EnableDisableAccount.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  'user.revokeSignInSessions': ['User.RevokeSessions.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  'identityProtection.GetRiskyUsers': ['IdentityRiskyUser.Read.All', 'IdentityRiskyUser.ReadWrite.All'],
  'identityProtection.riskyUsers.confirmCompromised': ['IdentityRiskyUser.ReadWrite.All'],
};

const DEFAULT_ENTRA_ROLES = [
  'User.Read.All',
  'AuditLog.Read.All',
  'User.RevokeSessions.All',
  'User.EnableDisableAccount.All',
  'IdentityRiskyUser.ReadWrite.All',
];

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export async function startSimEntra(opts: SimEntraOptions = {}): Promise<SimEntra> {
  const now = opts.now ?? (() => wallClock.now());
  const graph = new Contract('graph', './graph-openapi.json', '/v1.0');
  const login = new Contract('entra-token', './entra-token-openapi.json', '');
  const tokens = new Map<string, { roles: string[]; exp: number }>();
  const faults: { status: number; retryAfter?: number }[] = [];
  let down = false;
  const sim: Omit<SimEntra, 'url' | 'violations' | 'failNext' | 'setDown' | 'close'> = {
    tenantId: opts.tenantId ?? randomUUID(),
    clientId: opts.clientId ?? randomUUID(),
    clientSecret: opts.clientSecret ?? `sim~${randomBytes(18).toString('base64url')}`,
    users: opts.users ?? [],
    roles: opts.roles ?? [...DEFAULT_ENTRA_ROLES],
    calls: [],
    tokenCalls: 0,
  };

  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const body = Buffer.concat(chunks).toString('utf8');
      const input = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      if (url.pathname.endsWith('/oauth2/v2.0/token'))
        token(login.check(input) !== undefined, url, body, res);
      else answerGraph(req, res, input);
    });
  });

  function token(conforms: boolean, url: URL, body: string, res: ServerResponse): true {
    sim.tokenCalls++;
    if (!conforms) return send(res, 400, { error: 'invalid_request', error_codes: [900144] });
    const form = new URLSearchParams(body);
    const tenant = decodeURIComponent(url.pathname.split('/')[1] ?? '');
    if (tenant !== sim.tenantId)
      return send(res, 400, {
        error: 'invalid_tenant',
        error_description: 'AADSTS90002: Tenant not found.',
        error_codes: [90002],
      });
    if (form.get('client_id') !== sim.clientId)
      return send(res, 400, {
        error: 'unauthorized_client',
        error_description: 'AADSTS700016: Application not found.',
        error_codes: [700016],
      });
    if (form.get('client_secret') !== sim.clientSecret)
      return send(res, 401, {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
        error_codes: [7000215],
      });
    const exp = now() + 3600_000;
    const value = `${b64({ typ: 'JWT', alg: 'none' })}.${b64({ tid: sim.tenantId, appid: sim.clientId, roles: sim.roles, exp: Math.floor(exp / 1000) })}.${randomBytes(16).toString('base64url')}`;
    tokens.set(value, { roles: [...sim.roles], exp });
    return send(res, 200, {
      token_type: 'Bearer',
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: value,
    });
  }

  function answerGraph(
    req: IncomingMessage,
    res: ServerResponse,
    input: Parameters<Contract['check']>[0],
  ): true {
    const matched = graph.check(input);
    if (!matched) return graphError(res, 400, 'BadRequest', 'The request does not match the published API.');
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const held = tokens.get(bearer);
    if (!held || held.exp <= now())
      return graphError(res, 401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.');
    const fault = faults.shift();
    if (fault) {
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', String(fault.retryAfter));
      return graphError(
        res,
        fault.status,
        fault.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable',
        'Simulated fault.',
      );
    }
    const needs = NEEDS[matched.operationId] ?? [];
    if (!held.roles.some((r) => needs.includes(r)))
      return graphError(
        res,
        403,
        'Authorization_RequestDenied',
        'Insufficient privileges to complete the operation.',
      );
    sim.calls.push({ operationId: matched.operationId, path: input.path });
    return handle(matched.operationId, matched.params, input, held.roles, res);
  }

  function handle(
    op: string,
    params: Record<string, string>,
    input: Parameters<Contract['check']>[0],
    roles: string[],
    res: ServerResponse,
  ): true {
    const select = input.query.get('$select')?.split(',');
    if (select?.includes('signInActivity') && !roles.includes('AuditLog.Read.All'))
      return graphError(
        res,
        403,
        'Authorization_RequestDenied',
        'Insufficient privileges to complete the operation.',
      );
    const userOf = (id: string | undefined) =>
      sim.users.find((u) => u.id === id || u.userPrincipalName.toLowerCase() === id?.toLowerCase());
    switch (op) {
      case 'user.ListUser': {
        const found = filterUsers(sim.users, input.query.get('$filter'));
        const top = Number(input.query.get('$top') ?? found.length);
        return send(res, 200, { value: found.slice(0, top).map((u) => shape(u, select)) });
      }
      case 'user.GetUser': {
        const u = userOf(params['user-id']);
        return u ? send(res, 200, shape(u, select)) : notFound(res, params['user-id']);
      }
      case 'user.UpdateUser': {
        const u = userOf(params['user-id']);
        if (!u) return notFound(res, params['user-id']);
        const change = JSON.parse(input.body) as { accountEnabled?: boolean };
        if (typeof change.accountEnabled === 'boolean') u.accountEnabled = change.accountEnabled;
        return send(res, 204);
      }
      case 'user.revokeSignInSessions': {
        const u = userOf(params['user-id']);
        return u
          ? send(res, 200, {
              '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#Edm.Boolean',
              value: true,
            })
          : notFound(res, params['user-id']);
      }
      case 'identityProtection.GetRiskyUsers': {
        const u = userOf(params['riskyUser-id']);
        if (!u?.risk) return notFound(res, params['riskyUser-id']);
        return send(res, 200, {
          id: u.id,
          userPrincipalName: u.userPrincipalName,
          userDisplayName: u.displayName,
          riskDetail: 'none',
          ...u.risk,
        });
      }
      case 'identityProtection.riskyUsers.confirmCompromised': {
        const { userIds = [] } = JSON.parse(input.body) as { userIds?: string[] };
        const targets = userIds.map((id) => userOf(id));
        if (targets.some((u) => u === undefined)) return notFound(res, userIds.join(','));
        for (const u of targets) if (u) u.risk = { riskLevel: 'high', riskState: 'confirmedCompromised' };
        return send(res, 204);
      }
    }
    return graphError(res, 501, 'NotImplemented', `The simulator does not answer ${op}.`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(sim, {
    url: `http://127.0.0.1:${port}`,
    get violations() {
      return [...login.violations, ...graph.violations];
    },
    failNext(status: number, o: { retryAfter?: number; times?: number } = {}) {
      for (let i = 0; i < (o.times ?? 1); i++)
        faults.push({ status, ...(o.retryAfter === undefined ? {} : { retryAfter: o.retryAfter }) });
    },
    setDown(value: boolean) {
      down = value;
      if (value) server.closeIdleConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** `mail eq '…' or userPrincipalName eq '…'` (OData: quotes doubled, comparison without case), or nothing. */
function filterUsers(users: SimDirectoryUser[], filter: string | null): SimDirectoryUser[] {
  if (filter === null) return users;
  const terms = [...filter.matchAll(/(mail|userPrincipalName) eq '((?:[^']|'')*)'/g)].map((m) => ({
    field: m[1] as 'mail' | 'userPrincipalName',
    value: (m[2] ?? '').replaceAll("''", "'").toLowerCase(),
  }));
  return users.filter((u) => terms.some((t) => (u[t.field] ?? '').toLowerCase() === t.value));
}

function shape(u: SimDirectoryUser, select: string[] | undefined): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: u.id,
    displayName: u.displayName,
    userPrincipalName: u.userPrincipalName,
    mail: u.mail,
    accountEnabled: u.accountEnabled,
    userType: u.userType,
    signInActivity: {
      lastSignInDateTime: u.lastSignInDateTime ?? null,
      lastSuccessfulSignInDateTime: u.lastSignInDateTime ?? null,
    },
  };
  const keep = select ?? ['id', 'displayName', 'userPrincipalName', 'mail'];
  return Object.fromEntries(Object.entries(all).filter(([k]) => keep.includes(k)));
}

/** Answers; `true` so a handler can `return send(…)`. */
function send(res: ServerResponse, status: number, body?: unknown): true {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
  return true;
}

function graphError(res: ServerResponse, status: number, code: string, message: string): true {
  return send(res, status, {
    error: { code, message, innerError: { 'request-id': randomUUID() } },
  });
}

function notFound(res: ServerResponse, id: string | undefined): true {
  return graphError(
    res,
    404,
    'Request_ResourceNotFound',
    `Resource '${id ?? ''}' does not exist or one of its queried reference-property objects are not present.`,
  );
}
