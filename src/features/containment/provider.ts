/**
 * What containment asks of an identity provider, whichever it is (entra/, okta/): find the one directory user a
 * leaked identity names, read their state, act on them, and check the connection. A refusal is told in words,
 * with the permission to grant when that is the cause.
 */
import { RefusalError } from '../../kernel/errors.js';

/** What a containment does; each provider offers those it has. */
export type ContainAction = 'revoke' | 'compromised' | 'disable' | 'enable' | 'expire-password';

export const ACTION_WORDS: Readonly<Record<ContainAction, { button: string; verb: string; done: string }>> = {
  revoke: { button: 'Revoke sessions', verb: 'revoke every session of', done: 'Sessions revoked' },
  compromised: { button: 'Mark compromised', verb: 'mark as compromised', done: 'Marked compromised' },
  disable: { button: 'Disable account', verb: 'disable the account of', done: 'Account disabled' },
  enable: { button: 'Re-enable account', verb: 're-enable the account of', done: 'Account re-enabled' },
  'expire-password': { button: 'Expire password', verb: 'expire the password of', done: 'Password expired' },
};

export interface DirectoryUser {
  id: string;
  displayName: string;
  /** The sign-in name: Entra's userPrincipalName, Okta's login. */
  principal: string;
  enabled: boolean | undefined;
  /** ISO time of the last sign-in, when the provider tells (Entra: AuditLog.Read.All). */
  lastSignIn?: string | undefined;
  /** The provider's risk level or status, when it tells. */
  risk?: string | undefined;
  /** Why a part of the state is missing (a permission not granted). */
  notes: string[];
}

/** Exactly one user, or why not: containment never acts on a guess. */
export type DirectoryMatch =
  | { kind: 'one'; user: DirectoryUser }
  | { kind: 'none' }
  | { kind: 'many'; count: number };

export interface ConnectionCheck {
  /** The permissions (Entra application roles, Okta scopes or "API token") the provider says are granted. */
  granted: string[];
  /** What is missing for each action, in words. */
  missing: string[];
  /** The read-only call made, and what it answered. */
  test: string;
}

export interface IdentityProvider {
  readonly kind: 'entra' | 'okta';
  /** As people call it: "Microsoft Entra ID", "Okta". */
  readonly name: string;
  readonly actions: readonly ContainAction[];
  find(identity: string): Promise<DirectoryMatch>;
  /** The user's current state (after an action, to show it). */
  user(id: string): Promise<DirectoryUser>;
  act(userId: string, action: ContainAction): Promise<void>;
  check(): Promise<ConnectionCheck>;
}

/** The provider said no: told in words, with what to grant or when to try again. */
export class ProviderRefusalError extends RefusalError {
  constructor(
    message: string,
    hint: string,
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, hint);
  }
}

/** Retry-After in seconds (a number or an HTTP date is all RFC 9110 allows; a date is read on `now`). */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
