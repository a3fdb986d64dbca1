/**
 * An infected device's stealer log, with no Slack in it: the event's malware family and infection date, and
 * the machine's saved logins and cookies read from `_expand` (pages of 20, a bounded number), the hosts on
 * the tenant's own domains first, values MASKED. The view is kept as a context, with the tenant it was read
 * in, so Reveal can name a row; a reveal reads that row's page again in that tenant (the value only ever
 * lives in an API response) and is audited, like a leaked credential's.
 */
import { z } from 'zod';
import type { InfectedEvent, StealerLogCookie, StealerLogCredential } from '../api/index.js';
import { MAX_EXPAND_PAGE, NotFoundError } from '../api/index.js';
import { ExpiredError, VigilError } from '../kernel/errors.js';
import type { NewAuditEntry, Repositories } from '../store/index.js';
import { SEARCH_CONTEXT_TTL_MS } from '../store/index.js';
import { ContextStore } from './contexts.js';
import type { IdentifierDirectory } from './identifiers.js';
import { maskValue } from './mask.js';
import { type ApiAccess, inTenant } from './workspace-api.js';

/** Pages of each field read when the log is opened (100 entries each at most). */
const MAX_PAGES = 5;
/** Entries of each field shown on one page of the message (Next/Previous move through what was read). */
export const STEALER_LOG_PAGE = 10;

const EntrySchema = z.object({
  field: z.enum(['credentials', 'cookies']),
  host: z.string().max(300),
  /** On one of the tenant's domain identifiers. */
  own: z.boolean(),
  /** The username of a login, the name of a cookie. */
  label: z.string().max(300),
  masked: z.string(),
  application: z.string().max(100).optional(),
  /** Cookies: when it expires (null: at the end of the browser session). */
  expires: z.string().nullable().optional(),
  /** Where it was read: the page's `from` (absent for the first) and its position there. */
  from: z.string().optional(),
  position: z.number().int().min(0).max(MAX_EXPAND_PAGE),
});
export type StealerLogEntry = z.infer<typeof EntrySchema>;

const FieldSummarySchema = z.object({
  read: z.number().int().nonnegative(),
  own: z.number().int().nonnegative(),
  /** More entries exist than Vigil read. */
  more: z.boolean(),
});

const StealerLogViewSchema = z.object({
  workspaceId: z.string().min(1),
  userId: z.string().min(1),
  uid: z.string().min(1).max(1000),
  /** The tenant it was read in (the message's it was opened from): Reveal reads there again. */
  tenantId: z.number().int().positive().optional(),
  malwareFamily: z.string().max(200).optional(),
  infectedAt: z.string().max(100).optional(),
  os: z.string().max(200).optional(),
  country: z.string().max(10).optional(),
  credentials: FieldSummarySchema,
  cookies: FieldSummarySchema,
  /** Everything read, credentials first, then cookies, own hosts first in each; Reveal names an index here. */
  entries: z.array(EntrySchema).max(MAX_PAGES * MAX_EXPAND_PAGE * 2),
});
export type StealerLogView = z.infer<typeof StealerLogViewSchema>;

export interface StealerLogDeps {
  api: Pick<ApiAccess, 'call'>;
  repos: Pick<Repositories, 'searchContexts' | 'commandNotes'>;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  identifiers?: Pick<IdentifierDirectory, 'list'>;
}

/** A host on a domain (or below it): `vpn.acme.example` and `.acme.example` are on `acme.example`. */
function onDomain(host: string, domains: readonly string[]): boolean {
  const h = host.trim().toLowerCase().replace(/^\./, '');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

/** The host of a saved login's URL (its first word: a value with trailing text still names its host). */
function hostOf(url: string): string {
  const first = url.trim().split(/\s/)[0] ?? '';
  try {
    return new URL(first).hostname || first;
  } catch {
    return first;
  }
}

/** A cookie's host, without anything after its first word. */
const cookieHost = (hostKey: string): string => hostKey.trim().split(/\s/)[0] ?? '';

const clip = (s: string, n: number) => [...s].slice(0, n).join('');

function credentialEntry(
  c: StealerLogCredential,
  domains: readonly string[],
): Omit<StealerLogEntry, 'position'> {
  const host = clip(hostOf(c.url), 300);
  return {
    field: 'credentials',
    host,
    own: onDomain(host, domains),
    label: clip(c.username, 300),
    masked: maskValue(c.password),
    ...(c.application ? { application: clip(c.application, 100) } : {}),
  };
}

function cookieEntry(c: StealerLogCookie, domains: readonly string[]): Omit<StealerLogEntry, 'position'> {
  const host = clip(cookieHost(c.host_key), 300);
  return {
    field: 'cookies',
    host,
    own: onDomain(host, domains),
    label: clip(c.name, 300),
    masked: maskValue(c.value),
    expires: c.expires_utc ?? null,
  };
}

export class StealerLogs {
  readonly contexts: ContextStore<typeof StealerLogViewSchema>;

  constructor(private readonly deps: StealerLogDeps) {
    this.contexts = new ContextStore(deps.repos, StealerLogViewSchema, {
      ttlMs: SEARCH_CONTEXT_TTL_MS,
      expired: { kind: 'list', again: "the event's Open stealer log" },
    });
  }

  /** The tenant's own domains (its domain identifiers); none when the list cannot be read. */
  private async ownDomains(workspaceId: string): Promise<string[]> {
    const list = await this.deps.identifiers?.list(workspaceId).catch(() => undefined);
    // A domain identifier is named by its domain (the first word, should a name carry more).
    return (list?.identifiers ?? [])
      .filter((i) => i.type === 'domain')
      .map((i) => (i.name.trim().split(/\s/)[0] ?? '').toLowerCase())
      .filter((d) => d !== '');
  }

  /** Reads the log and keeps the view (masked); returns it with its context id. */
  async open(req: {
    workspaceId: string;
    userId: string;
    uid: string;
  }): Promise<{ view: StealerLogView; id: string }> {
    const domains = await this.ownDomains(req.workspaceId);
    const read = await this.deps.api
      .call(req.workspaceId, async ({ session }) => {
        const event = await session.getEvent(req.uid);
        const creds = await readPages((from) =>
          session.expandCredentials({ uid: req.uid, size: MAX_EXPAND_PAGE, ...from }),
        );
        const cookies = await readPages((from) =>
          session.expandCookies({ uid: req.uid, size: MAX_EXPAND_PAGE, ...from }),
        );
        return { event, creds, cookies, tenantId: session.tenantId };
      })
      .catch((err: unknown) => {
        if (err instanceof NotFoundError)
          throw new VigilError(
            'The threat-intel API has no stealer log for this event in this workspace’s tenant.',
            'It may have been removed, or belong to another tenant: run the search again.',
            { cause: err },
          );
        throw err;
      });
    const pick = <T>(
      rows: { item: T; from: string | undefined; position: number }[],
      entry: (item: T, d: readonly string[]) => Omit<StealerLogEntry, 'position'>,
    ) => {
      const all = rows.map((r) => ({
        ...entry(r.item, domains),
        position: r.position,
        ...(r.from === undefined ? {} : { from: r.from }),
      }));
      // The company's own logins first: those are the ones to reset.
      const sorted = [...all.filter((e) => e.own), ...all.filter((e) => !e.own)];
      return { shown: sorted, own: all.filter((e) => e.own).length };
    };
    const creds = pick(read.creds.rows, credentialEntry);
    const cookies = pick(read.cookies.rows, cookieEntry);
    const view: StealerLogView = {
      workspaceId: req.workspaceId,
      userId: req.userId,
      uid: req.uid,
      ...(read.tenantId === undefined ? {} : { tenantId: read.tenantId }),
      ...eventFacts(read.event),
      credentials: { read: read.creds.rows.length, own: creds.own, more: read.creds.more },
      cookies: { read: read.cookies.rows.length, own: cookies.own, more: read.cookies.more },
      entries: [...creds.shown, ...cookies.shown],
    };
    return { view, id: await this.contexts.save(view) };
  }

  /** The full value of entry `index`, read again from its page, audited; check `reveal` first. */
  async reveal(
    view: StealerLogView,
    index: number,
    who: { userId: string },
  ): Promise<{ entry: StealerLogEntry; value: string }> {
    const entry = view.entries[index];
    if (entry === undefined)
      throw new ExpiredError('This row is not part of this stealer log.', 'Open it again.');
    // In the tenant it was read in, whatever the workspace's is by now (a log kept before: the workspace's).
    const value = await inTenant(view.tenantId, () => this.readValue(view, entry));
    if (value === undefined)
      throw new ExpiredError(
        'This entry is no longer where the stealer log had it.',
        'Open the stealer log again.',
      );
    await this.deps.audit.append({
      teamId: view.workspaceId,
      userId: who.userId,
      action: 'stealer-log.reveal',
      target: view.uid,
      detail:
        `${entry.field === 'credentials' ? 'login' : 'cookie'} ${entry.label} on ${entry.host}, from Slack`.slice(
          0,
          500,
        ),
    });
    return { entry, value };
  }

  /** The full value of `entry`, read again from its page; undefined when it is no longer there. */
  private readValue(view: StealerLogView, entry: StealerLogEntry): Promise<string | undefined> {
    const from = entry.from === undefined ? {} : { from: entry.from };
    return this.deps.api.call(view.workspaceId, async ({ session }) => {
      const input = { uid: view.uid, size: MAX_EXPAND_PAGE, ...from };
      if (entry.field === 'credentials') {
        const item = (await session.expandCredentials(input)).items[entry.position];
        return item !== undefined &&
          hostOf(item.url).startsWith(entry.host) &&
          item.username.startsWith(entry.label)
          ? item.password
          : undefined;
      }
      const item = (await session.expandCookies(input)).items[entry.position];
      return item !== undefined &&
        cookieHost(item.host_key).startsWith(entry.host) &&
        item.name.startsWith(entry.label)
        ? item.value
        : undefined;
    });
  }
}

function eventFacts(e: InfectedEvent): Partial<StealerLogView> {
  const out: Partial<StealerLogView> = {};
  const malware = e.data?.malware_information;
  const victim = e.data?.victim_information;
  if (malware?.malware_family) out.malwareFamily = clip(malware.malware_family, 200);
  const infected = malware?.infected_at ?? victim?.installed_at;
  if (infected) out.infectedAt = clip(infected, 100);
  if (victim?.os) out.os = clip(victim.os, 200);
  if (victim?.country_code) out.country = clip(victim.country_code, 10);
  return out;
}

/** Up to MAX_PAGES pages, each row with the `from` of its page and its position there. */
async function readPages<T>(
  fetch: (from: { from?: string }) => Promise<{ items: T[]; next: string | null }>,
): Promise<{ rows: { item: T; from: string | undefined; position: number }[]; more: boolean }> {
  const rows: { item: T; from: string | undefined; position: number }[] = [];
  let from: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await fetch(from === undefined ? {} : { from });
    got.items.forEach((item, position) => {
      rows.push({ item, from, position });
    });
    if (got.next === null) return { rows, more: false };
    from = got.next;
  }
  return { rows, more: true };
}
