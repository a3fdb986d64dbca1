/**
 * Readable names for event types. Upstream's list is open: the specification's filter categories
 * (`leak`, `forum_content`) and production's `metadata.type` names (`stealer_log`, `forum_post`, about 70)
 * both occur, and a name not known yet still gets a label made from its words.
 */
import { escapeMrkdwn, truncate } from '../../slack/kit/text.js';

const LABELS: Readonly<Record<string, string>> = {
  // The specification's categories.
  illicit_networks: 'Illicit networks',
  open_web: 'Open web',
  leak: 'Leak',
  domain: 'Domain',
  listing: 'Listing',
  forum_content: 'Forum content',
  blog_content: 'Blog content',
  profile: 'Profile',
  chat_message: 'Chat message',
  ransomleak: 'Ransomware leak',
  infected_devices: 'Infected device',
  financial_data: 'Financial data',
  paste: 'Paste',
  social_media: 'Social media',
  source_code: 'Source code',
  google: 'Search result',
  service: 'Exposed service',
  buckets: 'Open buckets',
  // Production's `metadata.type` names.
  account: 'Account',
  actor: 'Threat actor',
  ad: 'Ad',
  ads: 'Ads',
  attachment: 'Attachment',
  blog_post: 'Blog post',
  bot: 'Bot',
  bucket: 'Open bucket',
  bucket_object: 'Bucket file',
  cc: 'Payment card',
  ccbin: 'Card BIN',
  cookie: 'Cookie',
  docker: 'Docker',
  docker_image: 'Docker image',
  docker_repository: 'Docker repository',
  document: 'Document',
  domains: 'Domains',
  driller: 'Driller',
  driller_forum_post: 'Driller forum post',
  driller_forum_topic: 'Driller forum topic',
  driller_host: 'Driller host',
  driller_profile: 'Driller profile',
  experimental: 'Experimental',
  forum_post: 'Forum post',
  forum_profile: 'Forum profile',
  forum_topic: 'Forum topic',
  intelligence_object: 'Intelligence',
  invalid_credential: 'Invalid credential',
  leaked_credential: 'Leaked credential',
  leaked_data: 'Leaked data',
  leaked_file: 'Leaked file',
  leaks: 'Leaks',
  lookalike: 'Lookalike domain',
  mitigated_credential: 'Mitigated credential',
  pii: 'Personal data',
  seller: 'Seller',
  social_media_account: 'Social media account',
  source_code_files: 'Source code files',
  source_code_secrets: 'Source code secret',
  source_code_secrets_np: 'Source code secret',
  stack_exchange: 'Stack Exchange post',
  stealer_log: 'Stealer log',
  valid_credential: 'Valid credential',
  whois: 'WHOIS record',
  source_code_secret: 'Source code secret',
  driller_google: 'Search result',
  driller_source_code: 'Source code',
  host: 'Host',
  ransomleak_file_listing: 'Ransomware leak files',
  'attachment/telegram': 'Telegram attachment',
  domain_certificate: 'Domain certificate',
  domain_dns_records: 'DNS records',
  domain_whois_rdap: 'WHOIS record',
  sdo_malware: 'Malware',
  sdo_threat_actor: 'Threat actor',
  sdo_vulnerability: 'Vulnerability',
};

/** "Stealer log" for `stealer_log`; a name not known yet gets the generic "Other event (crypto wallet)". */
export function typeLabel(type: string): string {
  if (Object.hasOwn(LABELS, type)) return LABELS[type] as string;
  const words = truncate(
    escapeMrkdwn(
      type
        .replace(/[_\s]+/g, ' ')
        .trim()
        .toLowerCase(),
    ),
    40,
  );
  return words === '' ? 'Other event' : `Other event (${words})`;
}
