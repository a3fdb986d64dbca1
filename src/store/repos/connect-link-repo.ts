/**
 * One-time connect links: an admin gets a short-lived URL to Vigil's own page where the API key is pasted.
 * Only a hash of the token is stored, so a copy of the store does not yield live links.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { randomId, sha256Hex } from './ids.js';
import { openNamespace, setOwned } from './namespaces.js';
import { readRecord } from './records.js';

export const CONNECT_LINK_TTL_MS = 10 * 60 * 1000;
/** 24 random bytes: 192 bits, 32 url-safe characters. */
const TOKEN_BYTES = 24;
const TOKEN = /^[A-Za-z0-9_-]{32}$/;
/** The single-use claim outlives the link's own expiry by this much, so it can never be reopened. */
const CLAIM_MARGIN_MS = 60_000;

export const ConnectLinkSchema = z.object({
  teamId: z.string().min(1),
  userId: z.string().min(1),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type ConnectLink = z.infer<typeof ConnectLinkSchema>;

export class ConnectLinkRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.ns = openNamespace(store, 'connect-link');
  }

  /** A new link token for `userId` of `teamId` (the workspace key). */
  async create(input: { teamId: string; userId: string; ttlMs?: number }): Promise<string> {
    const ttlMs = input.ttlMs ?? CONNECT_LINK_TTL_MS;
    const token = randomId(TOKEN_BYTES);
    const now = this.clock.now();
    const link: ConnectLink = {
      teamId: input.teamId,
      userId: input.userId,
      createdAt: now,
      expiresAt: now + ttlMs,
    };
    await setOwned(this.store, this.ns, sha256Hex(token), input.teamId, link, ttlMs);
    return token;
  }

  /** The link if it is still usable, without using it up (to render the page). */
  async peek(token: string): Promise<ConnectLink | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const link = await readRecord(this.ns, sha256Hex(token), ConnectLinkSchema);
    return link && link.expiresAt > this.clock.now() ? link : undefined;
  }

  /** Uses the link up: returns it to exactly one caller, however many submit it at once; then never again. */
  async consume(token: string): Promise<ConnectLink | undefined> {
    const link = await this.peek(token);
    if (!link) return undefined;
    const hash = sha256Hex(token);
    const claimMs = Math.max(1, link.expiresAt - this.clock.now()) + CLAIM_MARGIN_MS;
    if (!(await this.store.claim(`${link.teamId}:connect-link:${hash}`, claimMs))) return undefined;
    await this.ns.delete(hash);
    return link;
  }
}
