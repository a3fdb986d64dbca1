/** Every feature Vigil registers, in one list. */
import type { Feature } from '../context.js';
import { adminFeature } from './admin/index.js';
import { alertsFeature } from './alerts/index.js';
import { connectionFeature } from './connection/index.js';
import { credentialsFeature } from './credentials/index.js';
import { digestFeature } from './digest/index.js';
import { eventsFeature } from './events/index.js';
import { homeFeature } from './home/index.js';
import { identifiersFeature } from './identifiers/index.js';
import { intelFeature } from './intel/index.js';
import { lifecycleFeature } from './lifecycle/index.js';
import { policiesFeature } from './policies/index.js';
import { recommendationsFeature } from './recommendations/index.js';
import { reportsFeature } from './reports/index.js';
import { sandboxFeature } from './sandbox/index.js';
import { snoozeFeature } from './snooze/index.js';
import { workObjectsFeature } from './work-objects/index.js';
import { workflowStepsFeature } from './workflow-steps/index.js';

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
