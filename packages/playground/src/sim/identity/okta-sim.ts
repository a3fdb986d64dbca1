/**
 * A simulated Okta org: the management API operations containment uses, on 127.0.0.1, every request held to
 * the published OpenAPI document (okta-openapi.json, an extract of okta/okta-management-openapi-spec) with its
 * API-token auth (`SSWS`) or an OAuth 2.0 service app's access tokens (okta-oauth-sim.ts: the token endpoint,
 * held to okta-token-openapi.json, DPoP, and each operation's scope), Okta's error bodies, and 429s with
 * X-Rate-Limit-Reset on demand.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallClock } from '../defaults.js';
import { Contract, type Violation } from './contract.js';
import { type SimAnswer, SimOktaAuthServer, type SimServiceApp } from './okta-oauth-sim.js';

interface SimOktaUser {
  id: string;
  status: 'ACTIVE' | 'SUSPENDED' | 'PASSWORD_EXPIRED';
  lastLogin: string | null;
  profile: { login: string; email: string; firstName: string; lastName: string };
}

interface SimOkta {
  url: string;
  token: string;
  /** The OAuth 2.0 service app registered in the org: its client id and private key (to paste), scopes, DPoP. */
  serviceApp: SimServiceApp;
  users: SimOktaUser[];
  calls: { operationId: string; path: string; query: string }[];
  violations: Violation[];
  failNext(status: number): void;
  close(): Promise<void>;
}

export async function startSimOkta(
  opts: {
    users?: SimOktaUser[];
    now?: () => number;
    /** The service app's granted scopes (default read and manage), whether it requires DPoP (default yes), its key. */
    serviceApp?: { scopes?: string[]; dpop?: boolean; keyType?: 'rsa' | 'ec' };
  } = {},
): Promise<SimOkta> {
  const now = opts.now ?? (() => wallClock.now());
  const contract = new Contract('okta', './okta-openapi.json', '');
  const tokenContract = new Contract('okta-token', './okta-token-openapi.json', '');
  let origin = '';
  const oauth = new SimOktaAuthServer(() => origin, now, opts.serviceApp);
  const faults: number[] = [];
  const state = {
    token: `00${randomBytes(20).toString('base64url')}`,
    users: opts.users ?? [],
    calls: [] as SimOkta['calls'],
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const input = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (url.pathname === '/oauth2/v1/token') {
        const op = tokenContract.check(input);
        if (!op) return answer(res, { status: 400, body: { error: 'invalid_request' } });
        state.calls.push({ operationId: op.operationId, path: url.pathname, query: url.search });
        return answer(res, oauth.token(new URLSearchParams(input.body), header(req.headers.dpop)));
      }
      const matched = contract.check(input);
      if (!matched) return error(res, 400, 'E0000001', 'Api validation failed');
      const authorization = req.headers.authorization ?? '';
      if (authorization.startsWith('SSWS ')) {
        if (authorization !== `SSWS ${state.token}`)
          return error(res, 401, 'E0000011', 'Invalid token provided');
      } else {
        const refused = oauth.authorize(
          { method: input.method, path: url.pathname, authorization, dpop: header(req.headers.dpop) },
          matched.scopes,
        );
        if (refused) return answer(res, refused);
      }
      const fault = faults.shift();
      if (fault === 429) {
        res.setHeader('X-Rate-Limit-Reset', String(Math.ceil(now() / 1000) + 30));
        return error(res, 429, 'E0000047', 'API call exceeded rate limit due to too many requests.');
      }
      if (fault !== undefined) return error(res, fault, 'E0000009', 'Internal Server Error');
      state.calls.push({ operationId: matched.operationId, path: url.pathname, query: url.search });
      const user = state.users.find((u) => u.id === (matched.params.id ?? matched.params.userId));
      switch (matched.operationId) {
        case 'listUsers': {
          const terms = [
            ...(url.searchParams.get('search') ?? '').matchAll(
              /profile\.(email|login) eq "((?:[^"\\]|\\.)*)"/g,
            ),
          ];
          const found =
            terms.length === 0
              ? state.users
              : state.users.filter((u) =>
                  terms.some(
                    (t) => u.profile[t[1] as 'email' | 'login'].toLowerCase() === (t[2] ?? '').toLowerCase(),
                  ),
                );
          return send(res, 200, found.slice(0, Number(url.searchParams.get('limit') ?? 200)));
        }
        case 'getUser':
          return user ? send(res, 200, user) : error(res, 404, 'E0000007', 'Not found: Resource not found');
        case 'revokeUserSessions':
          return user ? send(res, 204) : error(res, 404, 'E0000007', 'Not found: Resource not found');
        case 'suspendUser':
        case 'unsuspendUser':
        case 'expirePassword': {
          if (!user) return error(res, 404, 'E0000007', 'Not found: Resource not found');
          user.status =
            matched.operationId === 'suspendUser'
              ? 'SUSPENDED'
              : matched.operationId === 'unsuspendUser'
                ? 'ACTIVE'
                : 'PASSWORD_EXPIRED';
          return send(res, 200, matched.operationId === 'expirePassword' ? user : {});
        }
      }
      return error(res, 501, 'E0000060', 'Unsupported operation.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return Object.assign(state, {
    url: origin,
    serviceApp: oauth.app,
    get violations() {
      return [...contract.violations, ...tokenContract.violations];
    },
    failNext(status: number) {
      faults.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function answer(res: ServerResponse, a: SimAnswer): true {
  for (const [name, value] of Object.entries(a.headers ?? {})) res.setHeader(name, value);
  return send(res, a.status, a.body);
}

function send(res: ServerResponse, status: number, body?: unknown): true {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
  return true;
}

function error(res: ServerResponse, status: number, errorCode: string, errorSummary: string): true {
  return send(res, status, {
    errorCode,
    errorSummary,
    errorLink: errorCode,
    errorId: `sim${randomBytes(8).toString('hex')}`,
    errorCauses: [],
  });
}
