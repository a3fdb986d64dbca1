/** What the identifiers commands and the watch buttons use. */

import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { WatchService } from '../../domain/watch-service.js';
import type { SlackBase } from '../../slack/context.js';
import type { IdentifierSearch } from './search.js';
export interface IdentifiersDeps extends SlackBase {
  identifiers: IdentifierDirectory;
  identifierSearch: IdentifierSearch;
  /** Adding, removing, disabling and enabling identifiers. */
  watch: WatchService;
}
