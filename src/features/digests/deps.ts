/** What the digest commands, forms and buttons use: the digest subscriptions, what a preview saves, the tags offered in the form, and the subscription checks. */
import type { KnownTags } from '../../domain/events/known-tags.js';
import type { RestPageDeps } from '../../domain/events/rest-pages.js';
import type { SubscriptionDeps } from '../../domain/subscriptions/slack.js';
import type { SlackBase } from '../../slack/context.js';
import type { PublisherDeps } from './publisher.js';
import type { DigestService } from './subscriptions.js';
export interface DigestsDeps extends SubscriptionDeps {
  digests: DigestService;
  /** Tags used before in the tenant, offered in the form. */
  knownTags: KnownTags;
}

/** What a digest's pages use (its preview, its "+N more" button): the subscriptions, the events as shown. */
export interface DigestPagesDeps extends SlackBase {
  digests: DigestService;
  /** The events of the "+N more" pages, as shown. */
  events: RestPageDeps['events'];
  /** What a preview saves, as a posted digest would. */
  publishing: PublisherDeps;
}
