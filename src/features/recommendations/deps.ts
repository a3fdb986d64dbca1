/** What the recommendations command and its buttons use. */

import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { WatchService } from '../../domain/watch-service.js';
import type { SlackBase } from '../../slack/context.js';
import type { RecommendationsService } from './service.js';
export interface RecommendationsDeps extends SlackBase {
  recommendations: RecommendationsService;
  identifiers: IdentifierDirectory;
  watch: WatchService;
}
