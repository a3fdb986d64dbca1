/**
 * The simulated API's own reading of what the published contract leaves to semantics: severity order, and
 * which production event types a filter value selects. What requests may contain is read from the published
 * documents themselves (openapi/). It never imports the client's enumerations: a misreading in the client
 * must fail a test, not be mirrored here.
 */

export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

/** The specification's event categories, each with the production names (`metadata.type`) it seeds. */
export const SEED_TYPES: Readonly<Record<string, readonly string[]>> = {
  illicit_networks: ['seller', 'bot'],
  open_web: ['document', 'driller'],
  leak: ['leak', 'leaked_credential'],
  domain: ['lookalike', 'domain'],
  listing: ['listing'],
  forum_content: ['forum_post', 'forum_topic'],
  blog_content: ['blog_post'],
  profile: ['forum_profile', 'actor'],
  chat_message: ['chat_message'],
  ransomleak: ['ransomleak'],
  infected_devices: ['stealer_log'],
  financial_data: ['cc'],
  paste: ['paste'],
  social_media: ['social_media_account'],
  source_code: ['source_code_secret'],
  google: ['driller_google'],
  service: ['service'],
  buckets: ['bucket', 'bucket_object'],
};

const LEAKS = ['leak', 'leaked_credential', 'leaked_data', 'leaked_file'];
const DOMAINS = [
  'domain',
  'lookalike',
  'whois',
  'domain_certificate',
  'domain_favicon',
  'domain_dns_records',
  'domain_ip_address',
  'domain_screenshot',
  'domain_title',
  'domain_whois_rdap',
];
const FORUMS = ['forum_post', 'forum_topic', 'forum_category', 'forum_thread_summary'];
const PROFILES = ['forum_profile', 'driller_profile', 'actor', 'actor_summary', 'account'];

/** Filter values that stand for several production names; any other value selects its own name only. */
const FILTER_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  illicit_networks: [
    'listing',
    'seller',
    'bot',
    'ransomleak',
    'ransomleak_file_listing',
    'stealer_log',
    'chat_message',
    'chat_channel_summary',
    'cc',
    'cc_bases',
    'blog_post',
    ...FORUMS,
    ...PROFILES,
  ],
  open_web: [
    'paste',
    'document',
    'driller',
    'driller_google',
    'driller_source_code',
    'driller_forum_post',
    'driller_forum_topic',
    'social_media_account',
    'source_code_secret',
    'bucket',
    'bucket_object',
    'docker_image',
    'docker_repository',
    'service',
    'host',
  ],
  leak: LEAKS,
  leaks: LEAKS,
  domain: DOMAINS,
  domains: DOMAINS,
  forum_content: FORUMS,
  blog_content: ['blog_post'],
  profile: PROFILES,
  chat_message: ['chat_message', 'chat_channel_summary'],
  ransomleak: ['ransomleak', 'ransomleak_file_listing'],
  infected_devices: ['stealer_log', 'bot', 'cookie'],
  financial_data: ['cc', 'cc_bases'],
  ccbin: ['cc', 'cc_bases'],
  social_media: ['social_media_account'],
  source_code: ['source_code_secret', 'driller_source_code'],
  source_code_secrets: ['source_code_secret'],
  source_code_secrets_np: ['source_code_secret'],
  source_code_files: ['driller_source_code'],
  docker: ['docker_image', 'docker_repository'],
  google: ['driller_google'],
  buckets: ['bucket', 'bucket_object'],
  driller_host: ['host'],
  ads: ['ad'],
  attachment: ['attachment', 'attachment/telegram'],
};

/** Whether an event of production type `type` is selected by the filter value `filter`. */
export function typeMatchesFilter(type: string, filter: string): boolean {
  return type === filter || (FILTER_MEMBERS[filter]?.includes(type) ?? false);
}
