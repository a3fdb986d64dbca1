/**
 * Events as a context keeps them: bounded in size (only what the renderer shows), and with any secret the
 * search was made with masked, because an event that matched a secret usually quotes it. Password-like words
 * of the highlights are masked too, whatever the search: every stored event (search contexts, portal-event
 * records, alerts and digests) is compacted here, so none is stored in clear; the side panel's audited
 * Reveal reads them from the API.
 */
import type { Event } from '../../api/index.js';
import { maskSecretWords } from '../mask.js';

const MAX_FRAGMENTS = 3;
const MAX_FRAGMENT = 1000;
const MAX_HIGHLIGHT_KEYS = 12;
const MAX_IDENTIFIERS = 50;
/** All of an event's tags a form can hold (a Block Kit multi-select has 100 options). */
const MAX_TAGS = 100;
/** A note as long as the triage form can edit, plus one character to tell it was longer. */
const MAX_NOTE = 3001;
const REDACTED = '[redacted]';

function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** The fields the renderer reads, each bounded; `secrets` are masked in every text. */
export function compactEvent(event: Event, secrets: readonly string[] = []): Event {
  const m = (s: string) => mask(s, secrets);
  const meta = event.metadata;
  const metadata: Event['metadata'] = {
    uid: meta.uid,
    type: m(meta.type),
    severity: m(meta.severity),
    estimated_created_at: meta.estimated_created_at,
  };
  if (meta.matched_at !== undefined) metadata.matched_at = meta.matched_at;
  if (meta.flare_url !== undefined) metadata.flare_url = m(meta.flare_url);
  const out: Event = { metadata };

  const t = event.tenant_metadata;
  if (t) {
    const tm: NonNullable<Event['tenant_metadata']> = {};
    if (t.severity) tm.severity = t.severity;
    if (t.tags) tm.tags = t.tags.slice(0, MAX_TAGS).map(m);
    // The row says whether a note exists; the Note form shows it.
    if (t.notes) tm.notes = m(t.notes).slice(0, MAX_NOTE);
    if (t.remediated_at !== undefined) tm.remediated_at = t.remediated_at;
    if (t.ignored_at !== undefined) tm.ignored_at = t.ignored_at;
    out.tenant_metadata = tm;
  } else if (t === null) {
    out.tenant_metadata = null;
  }
  if (event.identifiers) {
    out.identifiers = event.identifiers
      .slice(0, MAX_IDENTIFIERS)
      .map((i) => ({ id: i.id, name: m(i.name).slice(0, MAX_FRAGMENT) }));
  }
  if (event.highlights) {
    const highlights: Record<string, string[]> = {};
    for (const [key, fragments] of Object.entries(event.highlights).slice(0, MAX_HIGHLIGHT_KEYS)) {
      highlights[key] = fragments
        .slice(0, MAX_FRAGMENTS)
        .map((f) => maskSecretWords(m(f)).text.slice(0, MAX_FRAGMENT));
    }
    out.highlights = highlights;
  }
  return out;
}
