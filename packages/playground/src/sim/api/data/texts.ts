/** Vocabulary of the seeded data: realistic but fictitious names, plus the hostile strings Slack rendering is tested against. */

export const FIRST_NAMES = [
  'jane',
  'john',
  'amir',
  'li',
  'sofia',
  'marc',
  'olga',
  'kenji',
  'fatima',
  'lucas',
] as const;
export const LAST_NAMES = [
  'doe',
  'smith',
  'haddad',
  'wei',
  'rossi',
  'tremblay',
  'ivanova',
  'sato',
  'diallo',
  'silva',
] as const;

/** Per event type: the activity index used in uids, the sources, and whether record ids contain slashes. */
export const EVENT_SHAPES: Record<string, { index: string; sources: string[]; slashIds: boolean }> = {
  illicit_networks: { index: 'illicit_networks', sources: ['tor_market', 'i2p_board'], slashIds: false },
  open_web: { index: 'open_web', sources: ['news', 'web_crawler'], slashIds: true },
  leak: { index: 'leak', sources: ['breachforums', 'leakbase'], slashIds: false },
  domain: { index: 'domain', sources: ['certstream', 'zonefiles'], slashIds: false },
  listing: { index: 'listing', sources: ['genesis', 'russian_market'], slashIds: false },
  forum_content: { index: 'forum_post', sources: ['xss', 'exploit_in'], slashIds: false },
  blog_content: { index: 'blog_post', sources: ['medium', 'wordpress'], slashIds: true },
  profile: { index: 'forum_profile', sources: ['xss', 'dread'], slashIds: false },
  chat_message: { index: 'chat_message', sources: ['telegram', 'discord'], slashIds: true },
  ransomleak: { index: 'ransomleak', sources: ['lockbit', 'blackcat'], slashIds: false },
  infected_devices: { index: 'stealer_log', sources: ['redline', 'lumma'], slashIds: false },
  financial_data: { index: 'cc', sources: ['bidencash', 'brians_club'], slashIds: false },
  paste: { index: 'paste', sources: ['pastebin', 'ghostbin'], slashIds: false },
  social_media: { index: 'social_media_account', sources: ['x', 'vk'], slashIds: false },
  source_code: { index: 'source_code_secret', sources: ['github', 'gitlab'], slashIds: true },
  google: { index: 'driller_google', sources: ['google'], slashIds: false },
  service: { index: 'service', sources: ['shodan', 'censys'], slashIds: false },
  buckets: { index: 'bucket_object', sources: ['s3', 'azure_blob'], slashIds: true },
};

export const TITLE_TEMPLATES: Record<string, string> = {
  illicit_networks: 'Access to {v} offered on a hidden service',
  open_web: 'Article mentions {v} in a breach report',
  leak: 'Database dump containing {v} records',
  domain: 'Lookalike domain registered for {v}',
  listing: 'Marketplace listing selling {v} sessions',
  forum_content: 'Forum thread discussing {v}',
  blog_content: 'Blog post analyzing {v} exposure',
  profile: 'Threat actor profile referencing {v}',
  chat_message: 'Chat message sharing {v} data',
  ransomleak: 'Ransomware group claims {v} as victim',
  infected_devices: 'Stealer log with {v} credentials',
  financial_data: 'Card dump matching {v}',
  paste: 'Paste containing {v}',
  social_media: 'Impersonating account using {v}',
  source_code: 'Secret for {v} committed to a public repository',
  google: 'Search result exposes {v} documents',
  service: 'Exposed service on {v} infrastructure',
  buckets: 'Open bucket with {v} files',
};

export const TAGS = ['vip', 'triaged', 'false-positive', 'finance', 'escalated', 'customer-data'] as const;

export const NOTES = [
  'Checked with the IT team, password already rotated.',
  'Forwarded to legal for takedown.',
  'Possible duplicate of an older leak.',
] as const;

/** Titles and notes that must never turn into mentions, links or formatting once shown in Slack. */
export const HOSTILE_TITLES: readonly string[] = [
  'Urgent <!channel> everyone check {v} now',
  'Ping <@U123> and <!here> about {v} <#C0123|general>',
  '*bold* _italic_ ~strike~ `code` ```block``` around {v}',
  'Click <https://evil.example/login|click> to verify {v}',
  'Tom &amp; Jerry &lt;script&gt; & <b>html</b> for {v}',
  `Very long title about {v} ${'lorem ipsum dolor sit amet '.repeat(120).trim()}`,
  'Emoji storm 🔥💀🚨 🏴‍☠️ 👩🏽‍💻 for {v} :skull: :rotating_light:',
  'تسريب بيانات {v} من منتدى ‏RTL‏ עברית mixed ‮txet desrever‬',
];

export const SOURCES = [
  {
    id: 'combo_2025_q3',
    name: 'Combolist 2025 Q3',
    breached: false,
    alert: true,
    pii: ['email', 'password'],
  },
  { id: 'acmecloud_2024', name: 'AcmeCloud breach', breached: true, alert: true, pii: ['email', 'name'] },
  { id: 'redline_logs', name: 'RedLine stealer logs', breached: false, alert: true, pii: null },
  { id: 'forum_dump_17', name: 'Forum dump #17', breached: true, alert: false, pii: ['email'] },
  { id: 'paste_aggregate', name: 'Paste aggregate', breached: false, alert: false, pii: null },
  {
    id: 'telegram_cloud',
    name: 'Telegram cloud logs',
    breached: false,
    alert: true,
    pii: ['email', 'phone'],
  },
  { id: 'unknown_source', name: null, breached: false, alert: false, pii: null },
] as const;

export const HASH_TYPES = ['sha1', 'md5', 'bcrypt', 'sha256', 'ntlm', 'unknown', null] as const;

export const WEAK_PASSWORDS = ['Winter2025!', 'Password1', 'acme123', 'letmein!', 'Qwerty!2024'] as const;
