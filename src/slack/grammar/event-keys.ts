/**
 * The keys of an events search: `events` takes them, and `creds` knows them to say that one belongs to
 * `events` rather than call it unknown.
 */
export const EVENT_QUERY_KEYS = [
  'domain',
  'email',
  'keyword',
  'query',
  'username',
  'github',
  'brand',
  'name',
  'bin',
  'ip',
  'azure_tenant',
] as const;
export type EventQueryKey = (typeof EVENT_QUERY_KEYS)[number];

export const EVENT_FILTER_KEYS = [
  'severity',
  'type',
  'status',
  'tag',
  'since',
  'until',
  'order',
  'size',
  'sort',
] as const;
