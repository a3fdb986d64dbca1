/**
 * The tags seen so far on a workspace's tenant's events (in search results and in changes made through
 * Vigil), most recent first, offered in forms: the tag multi-select of triage, the `tag:` filter of the
 * digest form. Kept per tenant, so switching tenants shows that tenant's tags. Written only when a tag is
 * new, so a search costs one read.
 */
import { z } from 'zod';
import type { Repositories } from '../../store/index.js';

/** Tags remembered per tenant; the oldest go first. */
const MAX_KNOWN_TAGS = 500;
/** A tag longer than this is not offered (a Block Kit option's text holds 75 characters). */
const MAX_TAG_LENGTH = 75;

const KnownTagsSchema = z.object({ tags: z.array(z.string()).max(MAX_KNOWN_TAGS) });

const clean = (tags: Iterable<string>): string[] => {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.replace(/\s+/g, ' ').trim();
    if (tag !== '' && tag.length <= MAX_TAG_LENGTH && !out.includes(tag)) out.push(tag);
  }
  return out;
};

export class KnownTags {
  constructor(private readonly repos: Pick<Repositories, 'tenantTags'>) {}

  private get repo() {
    return this.repos.tenantTags(KnownTagsSchema);
  }

  /** Most recent first. */
  async list(workspaceId: string, tenant: number | undefined): Promise<string[]> {
    return (await this.repo.get(workspaceId, tenantKey(tenant)))?.tags ?? [];
  }

  /** Adds `tags` (most recent first); no write when every one is known already. */
  async remember(workspaceId: string, tenant: number | undefined, tags: Iterable<string>): Promise<void> {
    const seen = clean(tags);
    if (seen.length === 0) return;
    const key = tenantKey(tenant);
    const current = (await this.repo.get(workspaceId, key))?.tags ?? [];
    if (seen.every((t) => current.includes(t))) return;
    await this.repo.update(workspaceId, key, (now) => {
      const merged = clean([...seen, ...(now?.tags ?? [])]).slice(0, MAX_KNOWN_TAGS);
      return { tags: merged };
    });
  }
}

const tenantKey = (tenant: number | undefined): string => `tenant-${tenant ?? 'default'}`;
