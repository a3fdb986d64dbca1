/**
 * What a digest's trend links to. The threat-intel API documents one portal link, each event's own page
 * (`metadata.flare_url`, EventMetadata in the published OpenAPI); no portal search or filtered view is
 * documented (docs/digests.md). So a table row opens its identifier's newest event of the digest (Slack shows
 * it as the event's Work Object panel), and a number of the paragraph links only when it counts exactly one
 * event of this digest: that event's page. Other numbers stay bold. Pure.
 */
import type { Event } from '../../api/index.js';
import { effectiveSeverity } from '../../domain/events/model.js';
import type { TrendLinks } from '../../domain/subscriptions/trend-blocks.js';
import { safePortalUrl } from '../../slack/kit/text.js';

/** The links of a digest for `localDate` whose new events are `events`. */
export function digestTrendLinks(events: readonly Event[], localDate: string): Required<TrendLinks> {
  const newest = new Map<number, string>();
  const byTime = [...events].sort((a, b) =>
    b.metadata.estimated_created_at.localeCompare(a.metadata.estimated_created_at),
  );
  for (const e of byTime) {
    const id = e.identifiers?.[0]?.id;
    // A link element's URL is sent as is (safePortalUrl escapes `&` for mrkdwn).
    const url = safePortalUrl(e.metadata.flare_url ?? '')?.replaceAll('&amp;', '&');
    if (id !== undefined && url !== undefined && !newest.has(id)) newest.set(id, url);
  }
  return {
    row: (s) => newest.get(s.id),
    linkOf: (ref, count) => {
      // This digest's own period only (earlier periods' events are not at hand), and not what is open or
      // resolved (counted over many digests).
      if (count !== 1 || ref.to !== localDate || ref.status !== undefined) return undefined;
      const matching = events.filter(
        (e) =>
          (ref.severity === undefined || effectiveSeverity(e) === ref.severity) &&
          (ref.identifierId === undefined || (e.identifiers?.[0]?.id ?? 0) === ref.identifierId),
      );
      const [only] = matching;
      // Already safe inside mrkdwn's `<url|label>`.
      return matching.length === 1 && only ? safePortalUrl(only.metadata.flare_url ?? '') : undefined;
    },
  };
}
