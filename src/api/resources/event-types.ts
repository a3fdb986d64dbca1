/**
 * Event type names, from the published OpenAPI document (v4).
 *
 * - `PRODUCTION_EVENT_TYPES` (`ActivityModelName`): what production puts in an event's `metadata.type`.
 * - `EVENT_FILTER_TYPES` (`SearchType`): what the search filter `filters.type` accepts. It holds both the
 *   specification's categories (`leak`, `paste`, `illicit_networks`, …) and most production names
 *   (`stealer_log`, `forum_post`, `bucket`, …); a few production names have no filter value of their own and
 *   are mapped to the nearest one by `eventTypeFilterValues`.
 * - `EVENT_CATEGORIES`: the specification's filter categories (formerly `EVENT_TYPES`).
 */

export const EVENT_CATEGORIES = [
  'illicit_networks',
  'open_web',
  'leak',
  'domain',
  'listing',
  'forum_content',
  'blog_content',
  'profile',
  'chat_message',
  'ransomleak',
  'infected_devices',
  'financial_data',
  'paste',
  'social_media',
  'source_code',
  'google',
  'service',
  'buckets',
] as const;
type EventCategory = (typeof EVENT_CATEGORIES)[number];

/** @deprecated Use EVENT_CATEGORIES. @alias */
export const EVENT_TYPES = EVENT_CATEGORIES;
/** @deprecated Use EventCategory. */
export type EventType = EventCategory;

export const PRODUCTION_EVENT_TYPES = [
  'account',
  'actor',
  'actor_summary',
  'ad',
  'attachment',
  'blog_post',
  'bot',
  'bucket',
  'bucket_object',
  'cc',
  'cc_bases',
  'chat_channel_summary',
  'chat_message',
  'cookie',
  'docker_image',
  'docker_repository',
  'document',
  'domain',
  'domain_certificate',
  'domain_favicon',
  'domain_dns_records',
  'domain_ip_address',
  'domain_screenshot',
  'domain_title',
  'domain_whois_rdap',
  'driller',
  'driller_forum_post',
  'driller_forum_topic',
  'driller_google',
  'driller_profile',
  'driller_source_code',
  'entity_classification',
  'entity_summarization',
  'event',
  'experimental',
  'forum_category',
  'forum_post',
  'forum_profile',
  'forum_thread_summary',
  'forum_topic',
  'host',
  'intelligence_object',
  'invalid_credential',
  'leak',
  'leaked_credential',
  'leaked_data',
  'leaked_file',
  'listing',
  'lookalike',
  'mitigated_credential',
  'paste',
  'ransomleak',
  'ransomleak_file_listing',
  'score_event',
  'sdo_attack_pattern',
  'sdo_campaign',
  'sdo_identity',
  'sdo_indicator',
  'sdo_infrastructure',
  'sdo_location',
  'sdo_malware',
  'sdo_relationship',
  'sdo_external_report',
  'sdo_threat_actor',
  'sdo_threat_actor_group',
  'sdo_tool',
  'sdo_vulnerability',
  'seller',
  'service',
  'social_media_account',
  'source_code_secret',
  'stealer_log',
  'attachment/telegram',
  'threat_flow_summary',
  'valid_credential',
  'whois',
] as const;

export const EVENT_FILTER_TYPES = [
  'attachment',
  'listing',
  'ransomleak',
  'forum_post',
  'forum_topic',
  'forum_profile',
  'blog_post',
  'seller',
  'paste',
  'leak',
  'chat_message',
  'domain',
  'bot',
  'stealer_log',
  'infected_devices',
  'driller',
  'driller_forum_topic',
  'driller_forum_post',
  'driller_profile',
  'cc',
  'ccbin',
  'financial_data',
  'leaked_data',
  'leaked_file',
  'document',
  'account',
  'actor',
  'forum_content',
  'blog_content',
  'profile',
  'leaked_credential',
  'valid_credential',
  'invalid_credential',
  'mitigated_credential',
  'illicit_networks',
  'open_web',
  'domains',
  'intelligence_object',
  'leaks',
  'social_media_account',
  'social_media',
  'source_code',
  'source_code_secrets_np',
  'source_code_secrets',
  'source_code_files',
  'docker',
  'stack_exchange',
  'google',
  'service',
  'driller_host',
  'buckets',
  'bucket',
  'bucket_object',
  'whois',
  'ad',
  'ads',
  'cookie',
  'pii',
  'experimental',
] as const;
export type EventFilterType = (typeof EVENT_FILTER_TYPES)[number];

const FILTER_VALUES: ReadonlySet<string> = new Set(EVENT_FILTER_TYPES);

/** Production names the filter does not list, and the filter value that finds them. */
const FILTER_FALLBACK: Readonly<Record<string, EventFilterType>> = {
  actor_summary: 'actor',
  cc_bases: 'ccbin',
  chat_channel_summary: 'chat_message',
  docker_image: 'docker',
  docker_repository: 'docker',
  domain_certificate: 'domain',
  domain_favicon: 'domain',
  domain_dns_records: 'domain',
  domain_ip_address: 'domain',
  domain_screenshot: 'domain',
  domain_title: 'domain',
  domain_whois_rdap: 'whois',
  driller_google: 'google',
  driller_source_code: 'source_code',
  forum_category: 'forum_content',
  forum_thread_summary: 'forum_content',
  host: 'driller_host',
  lookalike: 'domain',
  ransomleak_file_listing: 'ransomleak',
  source_code_secret: 'source_code_secrets',
  'attachment/telegram': 'attachment',
};

export function isEventFilterType(name: string): name is EventFilterType {
  return FILTER_VALUES.has(name);
}

/**
 * The `filters.type` values that select events of the given names (categories or production names), in
 * order, without duplicates. Names with no filter value (e.g. `sdo_malware`) are left out: check
 * `unfilterableEventTypes` to tell the user.
 */
export function eventTypeFilterValues(names: readonly string[]): EventFilterType[] {
  const out = new Set<EventFilterType>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (isEventFilterType(name)) out.add(name);
    else {
      const mapped = FILTER_FALLBACK[name];
      if (mapped) out.add(mapped);
    }
  }
  return [...out];
}

/** The names among `names` that no filter value can select. */
export function unfilterableEventTypes(names: readonly string[]): string[] {
  return names.filter((raw) => {
    const name = raw.trim().toLowerCase();
    return !isEventFilterType(name) && FILTER_FALLBACK[name] === undefined;
  });
}
