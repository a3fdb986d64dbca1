/** Every feature Vigil registers, in one list. */

import { alertsFeature } from '../features/alerts/index.js';
import { connectionFeature } from '../features/connection/index.js';
import { lifecycleFeature } from '../features/connection/lifecycle.js';
import { credentialsFeature } from '../features/credentials/index.js';
import { digestFeature } from '../features/digests/index.js';
import { eventsFeature } from '../features/events/index.js';
import { homeFeature } from '../features/home/index.js';
import { identifiersFeature } from '../features/identifiers/index.js';
import { intelFeature } from '../features/intel/index.js';
import { policiesFeature } from '../features/policies/index.js';
import { recommendationsFeature } from '../features/recommendations/index.js';
import { reportsFeature } from '../features/reports/index.js';
import { sandboxFeature } from '../features/sandbox/index.js';
import { adminFeature } from '../features/settings/index.js';
import { snoozeFeature } from '../features/snooze/index.js';
import { workObjectsFeature } from '../features/work-objects/index.js';
import { workflowStepsFeature } from '../features/workflow-steps/index.js';
import type { Feature } from '../slack/context.js';

export const ALL_FEATURES: readonly Feature[] = [
  connectionFeature,
  eventsFeature,
  identifiersFeature,
  credentialsFeature,
  digestFeature,
  alertsFeature,
  adminFeature,
  homeFeature,
  lifecycleFeature,
  policiesFeature,
  recommendationsFeature,
  reportsFeature,
  intelFeature,
  sandboxFeature,
  snoozeFeature,
  workObjectsFeature,
  workflowStepsFeature,
];
