/** What the unfurls and the side panel use. */

import type { ContainEntry } from '../../domain/contain-entry.js';
import type { KnownTags } from '../../domain/events/known-tags.js';
import type { SnoozeService } from '../../domain/snooze-service.js';
import type { SlackBase } from '../../slack/context.js';
import type { WorkObjectsService } from './service.js';
export interface WorkObjectsDeps extends SlackBase {
  workObjects: WorkObjectsService;
  snoozes: SnoozeService;
  knownTags: KnownTags;
  /** An identity provider to contain in (containment): the panel offers *Contain…* to holders of `contain`. */
  containment?: ContainEntry;
}

/** The person looking, from the verified payload. */
export interface Viewer {
  workspaceId: string;
  teamId: string;
  enterprise: boolean;
  userId: string;
}
