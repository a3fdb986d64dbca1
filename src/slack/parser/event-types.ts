/**
 * What `type:` accepts: the specification's categories (`leak`, `forum_content`) and production's event type
 * names (`stealer_log`, `forum_post`), the values of the published contract's `SearchType`. Both filter
 * upstream; both get readable labels in results (blocks/event-types.ts).
 */
import { EVENT_TYPES } from '../../api/index.js';

/** Production's names that are not also specification categories (OpenAPI `SearchType`). */
export const PRODUCTION_TYPE_FILTERS = [
  'attachment',
  'forum_post',
  'forum_topic',
  'forum_profile',
  'blog_post',
  'seller',
  'bot',
  'stealer_log',
  'driller',
  'driller_forum_topic',
  'driller_forum_post',
  'driller_profile',
  'cc',
  'ccbin',
  'leaked_data',
  'leaked_file',
  'document',
  'account',
  'actor',
  'leaked_credential',
  'valid_credential',
  'invalid_credential',
  'mitigated_credential',
  'domains',
  'intelligence_object',
  'leaks',
  'social_media_account',
  'source_code_secrets_np',
  'source_code_secrets',
  'source_code_files',
  'docker',
  'stack_exchange',
  'driller_host',
  'bucket',
  'bucket_object',
  'whois',
  'ad',
  'ads',
  'cookie',
  'pii',
  'experimental',
] as const;

/** Every accepted `type:` value: categories first (they are what help suggests), then production names. */
export const EVENT_TYPE_FILTERS: readonly string[] = [...EVENT_TYPES, ...PRODUCTION_TYPE_FILTERS];
