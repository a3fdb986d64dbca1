/**
 * An infected device's event (v4, published contract): the event itself (`GET …/v4/events/?uid=`: malware
 * family, infection date, the victim's machine) and what the stealer took from it (`GET …/v4/events/_expand`,
 * `field` credentials or cookies, pages of at most 20).
 */
import { z } from 'zod';
import type { ResourceSession } from '../core/resource-session.js';
import { nullableString, page } from '../core/schema.js';
import { Problems, type QueryParams } from '../core/wire.js';

const EXPANDABLE_FIELDS = ['credentials', 'cookies'] as const;
type ExpandableField = (typeof EXPANDABLE_FIELDS)[number];

/** The contract's `size` bound for `_expand`. */
export const MAX_EXPAND_PAGE = 20;

const StealerLogCredentialSchema = z.object({
  url: z.string(),
  username: z.string(),
  password: z.string(),
  application: z.string().optional(),
});
export type StealerLogCredential = z.infer<typeof StealerLogCredentialSchema>;

const StealerLogCookieSchema = z.object({
  host_key: z.string(),
  path: z.string().optional(),
  expires_utc: nullableString.optional(),
  name: z.string(),
  value: z.string(),
});
export type StealerLogCookie = z.infer<typeof StealerLogCookieSchema>;

const CredentialsPageSchema = page(StealerLogCredentialSchema);
const CookiesPageSchema = page(StealerLogCookieSchema);

/**
 * What Vigil reads of an infected device's event: a stealer log's `malware_information` and
 * `victim_information`, or a bot listing's `victim_information` (its `installed_at` is the infection date).
 * Every other field of the many event shapes is ignored.
 */
const InfectedEventSchema = z.object({
  event_type: z.string().optional(),
  data: z
    .object({
      malware_information: z
        .object({
          malware_family: nullableString.optional(),
          infected_at: nullableString.optional(),
          build_id: nullableString.optional(),
        })
        .nullish(),
      victim_information: z
        .object({
          os: nullableString.optional(),
          country_code: nullableString.optional(),
          installed_at: nullableString.optional(),
          hwid: nullableString.optional(),
        })
        .nullish(),
    })
    .nullish(),
  metadata: z.object({ uid: z.string(), type: z.string().optional() }).optional(),
});
export type InfectedEvent = z.infer<typeof InfectedEventSchema>;

interface ExpandInput {
  uid: string;
  field: ExpandableField;
  from?: string;
  /** 1–20. */
  size?: number;
}

function expandQuery(input: ExpandInput): QueryParams {
  const problems = new Problems();
  if (typeof input.uid !== 'string' || input.uid.length === 0) problems.add('uid', 'is required');
  if (!(EXPANDABLE_FIELDS as readonly string[]).includes(input.field))
    problems.add('field', `unknown value ${JSON.stringify(input.field)}`);
  problems.size('size', input.size, 1, MAX_EXPAND_PAGE);
  problems.throwIfAny('event expansion');
  const q: QueryParams = [
    ['field', input.field],
    ['uid', input.uid],
  ];
  if (input.from !== undefined) q.push(['from', input.from]);
  if (input.size !== undefined) q.push(['size', String(input.size)]);
  return q;
}

export interface StealerLogsApi {
  getEvent(uid: string): Promise<InfectedEvent>;
  expandCredentials(
    input: Omit<ExpandInput, 'field'>,
  ): Promise<{ items: StealerLogCredential[]; next: string | null }>;
  expandCookies(
    input: Omit<ExpandInput, 'field'>,
  ): Promise<{ items: StealerLogCookie[]; next: string | null }>;
}

export function stealerLogsResource({ call, v4 }: ResourceSession): StealerLogsApi {
  const expand = async <S extends typeof CredentialsPageSchema | typeof CookiesPageSchema>(
    input: ExpandInput,
    schema: S,
  ) =>
    (
      await call({
        method: 'GET',
        path: `${v4}/events/_expand`,
        query: expandQuery(input),
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema,
      })
    ).data;
  return {
    async getEvent(uid) {
      const problems = new Problems();
      if (uid.length === 0) problems.add('uid', 'is required');
      problems.throwIfAny('event');
      const { data } = await call({
        method: 'GET',
        // The trailing slash is part of the published path.
        path: `${v4}/events/`,
        query: [['uid', uid]],
        tier: 'ordinary',
        idempotent: true,
        auth: 'token',
        schema: InfectedEventSchema,
      });
      return data;
    },
    expandCredentials: (input) => expand({ ...input, field: 'credentials' }, CredentialsPageSchema),
    expandCookies: (input) => expand({ ...input, field: 'cookies' }, CookiesPageSchema),
  };
}
