/**
 * Which rate budget a call counts against: its organization when the credentials carry it (a stored
 * connection records it) or once a `/tokens/test` has revealed it for the API key (here or, through the
 * injected organization memory, on any instance), otherwise a fingerprint of the API key. Two keys of one
 * organization used before either was tested can therefore briefly share less than the organization's
 * budget; the margin in the limiter and retries on 429 absorb that. Keys are scoped by the API origin:
 * regions are separate organizations.
 */
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import { keyFingerprint } from './tokens.js';

/** API key fingerprint → organization id, learnt from /tokens/test and shared by every instance. */
export interface OrganizationMemory {
  get(keyFingerprint: string): Promise<number | undefined>;
  set(keyFingerprint: string, organizationId: number): Promise<void>;
}

/** How long an API key with no known organization is not looked up again in the shared memory. */
const UNKNOWN_ORG_RECHECK_MS = 30_000;

export class OrganizationKeys {
  /** API key fingerprint → organization id. */
  private readonly known = new Map<string, number>();
  /** Fingerprints the shared memory did not know, and when it was asked. */
  private readonly unknown = new Map<string, number>();

  constructor(
    /** Prefix of every key: the API origin and path prefix. */
    readonly scope: string,
    private readonly deps: { clock: Clock; logger: Logger; memory?: OrganizationMemory | undefined },
  ) {}

  learn(apiKey: string, organizationId: number): void {
    const fp = keyFingerprint(apiKey);
    if (this.known.get(fp) === organizationId) return;
    this.known.set(fp, organizationId);
    this.unknown.delete(fp);
    this.deps.memory?.set(fp, organizationId).catch((err: unknown) => {
      this.deps.logger.warn('could not share an organization id', { err });
    });
  }

  /** The rate-limit key of calls made with these credentials. */
  async limiterKey(creds: { apiKey: string; organizationId?: number | undefined }): Promise<string> {
    if (creds.organizationId !== undefined) return `${this.scope}|org:${creds.organizationId}`;
    const fp = keyFingerprint(creds.apiKey);
    const org = this.known.get(fp) ?? (await this.shared(fp));
    return org === undefined ? `${this.scope}|key:${fp}` : `${this.scope}|org:${org}`;
  }

  private async shared(fp: string): Promise<number | undefined> {
    const { memory, clock } = this.deps;
    const now = clock.now();
    const askedAt = this.unknown.get(fp);
    if (!memory || (askedAt !== undefined && now - askedAt < UNKNOWN_ORG_RECHECK_MS)) return undefined;
    const org = await memory.get(fp).catch(() => undefined);
    if (org === undefined) this.unknown.set(fp, now);
    else this.known.set(fp, org);
    return org;
  }
}
