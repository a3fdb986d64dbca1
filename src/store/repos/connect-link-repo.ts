/**
 * One-time connect links: an admin gets a short-lived URL to Vigil's own page where the API key is pasted.
 * Only a hash of the token is stored, so a copy of the store does not yield live links. The `response_url`
 * that confirms the connection in Slack is sealed like other secrets, bound to the workspace.
 *
 * Everything a page submission races on is counted with the store's claims, which are atomic across
 * processes on both backends: key attempts (a numbered slot each), form tokens (single use), the link itself.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { randomId, sha256Hex } from './ids.js';
import { openNamespace, setOwned } from './namespaces.js';
import { readRecord, unlessUnreadable } from './records.js';
import { RESPONSE_URL_PURPOSE } from './sealed-fields.js';
import type { Sealer } from './sealing.js';

const CONNECT_LINK_TTL_MS = 10 * 60 * 1000;
/** Key submissions a link allows, wrong ones included; then it is dead. */
const MAX_KEY_ATTEMPTS = 5;
/** 24 random bytes: 192 bits, 32 url-safe characters. */
const TOKEN_BYTES = 24;
const TOKEN = /^[A-Za-z0-9_-]{32}$/;
/** Form tokens: 16 random bytes, 22 url-safe characters. */
const FORM_TOKEN_BYTES = 16;
const FORM_TOKEN = /^[A-Za-z0-9_-]{22}$/;
/** Claims outlive the link's own expiry by this much, so a slot can never be reopened. */
const CLAIM_MARGIN_MS = 60_000;

const StoredLinkSchema = z.object({
  teamId: z.string().min(1),
  userId: z.string().min(1),
  createdAt: z.number(),
  expiresAt: z.number(),
  sealedResponseUrl: z.string().optional(),
});
const FormTokenSchema = z.object({ link: z.string() });
/** A key checked on the page, waiting (sealed) for the admin to choose the tenant. */
const PendingKeySchema = z.object({
  host: z.string(),
  sealedApiKey: z.string(),
  verified: z.object({
    apiKeyId: z.number(),
    organizationId: z.number(),
    defaultTenantId: z.number(),
    scopes: z.array(z.string()),
    tenants: z.array(z.object({ id: z.number(), name: z.string() })),
  }),
});
export type PendingConnectKey = z.infer<typeof PendingKeySchema>;

export interface ConnectLink {
  teamId: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

/** What `consume` hands to the one caller that completes the flow. */
export interface ConsumedConnectLink extends ConnectLink {
  /** Where to confirm in Slack, when the link was created from a command. */
  responseUrl?: string;
}

export class ConnectLinkRepo {
  private readonly ns: Namespace;
  private readonly forms: Namespace;
  private readonly pending: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
  ) {
    this.ns = openNamespace(store, 'connect-link');
    this.forms = openNamespace(store, 'connect-form');
    this.pending = openNamespace(store, 'connect-pending');
  }

  /** A new link token for `userId` of `teamId` (the workspace key). */
  async create(input: {
    teamId: string;
    userId: string;
    ttlMs?: number;
    responseUrl?: string;
  }): Promise<string> {
    const ttlMs = input.ttlMs ?? CONNECT_LINK_TTL_MS;
    const token = randomId(TOKEN_BYTES);
    const now = this.clock.now();
    const link: z.infer<typeof StoredLinkSchema> = {
      teamId: input.teamId,
      userId: input.userId,
      createdAt: now,
      expiresAt: now + ttlMs,
      ...(input.responseUrl === undefined
        ? {}
        : { sealedResponseUrl: this.sealer.seal(input.responseUrl, input.teamId, RESPONSE_URL_PURPOSE) }),
    };
    await setOwned(this.store, this.ns, sha256Hex(token), input.teamId, link, ttlMs);
    return token;
  }

  /** The link if it is still usable, without using it up (to render the page). */
  async peek(token: string): Promise<ConnectLink | undefined> {
    const stored = await this.read(token);
    if (!stored) return undefined;
    const { sealedResponseUrl: _sealed, ...link } = stored;
    return link;
  }

  /** Uses the link up: returns it to exactly one caller, however many submit it at once; then never again. */
  async consume(token: string): Promise<ConsumedConnectLink | undefined> {
    const stored = await this.read(token);
    if (!stored) return undefined;
    const hash = sha256Hex(token);
    if (!(await this.store.claim(`${stored.teamId}:connect-link:${hash}`, this.claimMs(stored))))
      return undefined;
    await this.ns.delete(hash);
    const { sealedResponseUrl, ...link } = stored;
    if (sealedResponseUrl === undefined) return link;
    return { ...link, responseUrl: this.sealer.open(sealedResponseUrl, link.teamId, RESPONSE_URL_PURPOSE) };
  }

  /**
   * Counts one key attempt before the key is checked: how many remain after this one, or undefined when the
   * link has none left, in which case the link is used up. Parallel submissions each take a different slot,
   * so no more than MAX_KEY_ATTEMPTS keys are ever checked.
   */
  async recordAttempt(token: string): Promise<{ remaining: number } | undefined> {
    const stored = await this.read(token);
    if (!stored) return undefined;
    const hash = sha256Hex(token);
    for (let attempt = 1; attempt <= MAX_KEY_ATTEMPTS; attempt++) {
      if (await this.store.claim(`${stored.teamId}:connect-attempt:${hash}:${attempt}`, this.claimMs(stored)))
        return { remaining: MAX_KEY_ATTEMPTS - attempt };
    }
    await this.consume(token);
    return undefined;
  }

  /** A fresh token for one rendering of the link's form: it is accepted once, for this link only. */
  async issueFormToken(token: string): Promise<string | undefined> {
    const stored = await this.read(token);
    if (!stored) return undefined;
    const formToken = randomId(FORM_TOKEN_BYTES);
    await setOwned(
      this.store,
      this.forms,
      sha256Hex(formToken),
      stored.teamId,
      { link: sha256Hex(token) },
      this.claimMs(stored),
    );
    return formToken;
  }

  /** True for exactly one submission of a form token issued for this link. */
  async takeFormToken(token: string, formToken: string): Promise<boolean> {
    if (!FORM_TOKEN.test(formToken)) return false;
    const stored = await this.read(token);
    if (!stored) return false;
    const key = sha256Hex(formToken);
    const issued = await unlessUnreadable(readRecord(this.forms, key, FormTokenSchema), undefined);
    if (!issued || issued.link !== sha256Hex(token)) return false;
    if (!(await this.store.claim(`${stored.teamId}:connect-form:${key}`, this.claimMs(stored)))) return false;
    await this.forms.delete(key);
    return true;
  }

  /** Keeps a checked key beside the link (by the link's hash, like the link) until the tenant is chosen. */
  async savePendingKey(token: string, key: PendingConnectKey): Promise<void> {
    const stored = await this.read(token);
    if (!stored) return;
    await setOwned(
      this.store,
      this.pending,
      sha256Hex(token),
      stored.teamId,
      PendingKeySchema.parse(key),
      this.claimMs(stored),
    );
  }

  async pendingKey(token: string): Promise<PendingConnectKey | undefined> {
    if (!(await this.read(token))) return undefined;
    return unlessUnreadable(readRecord(this.pending, sha256Hex(token), PendingKeySchema), undefined);
  }

  async deletePendingKey(token: string): Promise<void> {
    if (TOKEN.test(token)) await this.pending.delete(sha256Hex(token));
  }

  private async read(token: string): Promise<z.infer<typeof StoredLinkSchema> | undefined> {
    if (!TOKEN.test(token)) return undefined;
    // An unreadable link (set aside by the store) is no link: the page says to ask for a new one.
    const link = await unlessUnreadable(readRecord(this.ns, sha256Hex(token), StoredLinkSchema), undefined);
    return link && link.expiresAt > this.clock.now() ? link : undefined;
  }

  private claimMs(link: { expiresAt: number }): number {
    return Math.max(1, link.expiresAt - this.clock.now()) + CLAIM_MARGIN_MS;
  }
}
