/**
 * The event, in pure functions: the severity that counts and its rank, the orders events are shown in, the
 * title, the status, and what an action does to an event (so a message is re-rendered without another
 * search). Every other layer asks these instead of reading `tenant_metadata` on its own.
 */
import type { Event, EventActionType, Severity, TenantMetadata } from '../../api/index.js';
import { SEVERITIES } from '../../api/index.js';

// ── Severity ──────────────────────────────────────────────────────────────────────────────────────────

export function isSeverity(s: unknown): s is Severity {
  return (SEVERITIES as readonly unknown[]).includes(s);
}

/** The severity that counts: the tenant's override, else the event's own. */
export function effectiveSeverity(event: Event): string {
  return event.tenant_metadata?.severity?.override ?? event.metadata.severity;
}

/** The tenant's override when it is a known level, else null (the form offers "no override"). */
export function severityOverride(event: Event): Severity | null {
  const o = event.tenant_metadata?.severity?.override;
  return isSeverity(o) ? o : null;
}

/** The event's own severity, before any override of the tenant's. */
export function originalSeverity(event: Event): string {
  return event.tenant_metadata?.severity?.original ?? event.metadata.severity;
}

/** The severity an override replaced, when the tenant's override (known level or not) differs from it. */
export function overriddenFrom(event: Event): string | undefined {
  const override = event.tenant_metadata?.severity?.override ?? undefined;
  const original = originalSeverity(event);
  return override !== undefined && override !== original ? original : undefined;
}

/** info 0 … critical 4; a severity not known yet ranks below info (-1). */
export function severityRank(severity: string): number {
  return (SEVERITIES as readonly string[]).indexOf(severity);
}

// ── Order ─────────────────────────────────────────────────────────────────────────────────────────────

/** Most severe first (by effective severity); equals compare 0. */
function moreSevereFirst(a: Event, b: Event): number {
  return severityRank(effectiveSeverity(b)) - severityRank(effectiveSeverity(a));
}

/** Digests and alerts: most severe first; within a severity, newest first; then by uid so the order is stable. */
export function bySeverity(a: Event, b: Event): number {
  return (
    moreSevereFirst(a, b) ||
    b.metadata.estimated_created_at.localeCompare(a.metadata.estimated_created_at) ||
    a.metadata.uid.localeCompare(b.metadata.uid)
  );
}

/** `sort:severity`: a page's most severe events first, the API's order kept among equals (sort is stable). */
export function sortBySeverity<T>(items: readonly T[], eventOf: (item: T) => Event): T[] {
  return [...items].sort((a, b) => moreSevereFirst(eventOf(a), eventOf(b)));
}

// ── Title ─────────────────────────────────────────────────────────────────────────────────────────────

const TITLE_KEYS = /title|subject|headline|name|header/i;
/** Fragments a title is made of: the first two of its highlight. */
const TITLE_FRAGMENTS = 2;
const TITLE_JOIN = ' … ';

/**
 * The fragments of the title highlight, else of the first one whose name says title, else of the first
 * highlight; upstream text, with its `<mark>`s (renderers escape it and make marks bold).
 */
export function titleFragments(event: Event): string[] {
  const highlights = event.highlights ?? {};
  const keys = Object.keys(highlights);
  const key = 'title' in highlights ? 'title' : (keys.find((k) => TITLE_KEYS.test(k)) ?? keys[0]);
  return key === undefined ? [] : (highlights[key] ?? []).slice(0, TITLE_FRAGMENTS);
}

/** Joins rendered title fragments as a row shows them. */
export function joinTitle(parts: readonly string[]): string {
  return parts.filter((p) => p !== '').join(TITLE_JOIN);
}

/** The title as plain words (no markup), for audit entries and notifications; empty when it has none. */
export function eventTitle(event: Event, max = 200): string {
  const words = joinTitle(
    titleFragments(event).map((f) =>
      f
        .replace(/<[^<>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
  return words.length > max ? `${words.slice(0, max - 1)}…` : words;
}

// ── Status ────────────────────────────────────────────────────────────────────────────────────────────

export interface EventStatus {
  ignoredAt: string | undefined;
  remediatedAt: string | undefined;
}

export function eventStatus(event: Event): EventStatus {
  return {
    ignoredAt: event.tenant_metadata?.ignored_at ?? undefined,
    remediatedAt: event.tenant_metadata?.remediated_at ?? undefined,
  };
}

/** Ignored or remediated already: nobody needs an alert for it, and "Ignore all" passes it by. */
export function isHandled(event: Event): boolean {
  const { ignoredAt, remediatedAt } = eventStatus(event);
  return Boolean(ignoredAt || remediatedAt);
}

// ── Actions ───────────────────────────────────────────────────────────────────────────────────────────

/** Who acted on an event, with what, and when (epoch ms). */
export interface Acted {
  action: EventActionType;
  by: string;
  at: number;
}

const REVERSE: Record<EventActionType, EventActionType> = {
  ignore: 'unignore',
  remediate: 'unremediate',
  unignore: 'ignore',
  unremediate: 'remediate',
};

/** The action that undoes `action`. */
export function reverseOf(action: EventActionType): EventActionType {
  return REVERSE[action];
}

/** The event as it is after `action`, for re-rendering without another search. */
export function applyAction(event: Event, action: EventActionType, atIso: string): Event {
  const meta = { ...(event.tenant_metadata ?? {}) };
  if (action === 'ignore') meta.ignored_at ??= atIso;
  if (action === 'unignore') meta.ignored_at = null;
  if (action === 'remediate') meta.remediated_at ??= atIso;
  if (action === 'unremediate') meta.remediated_at = null;
  return { ...event, tenant_metadata: meta };
}

/**
 * The event as it is after a triage answer: the fields the API answered (all three, what the tenant now
 * sees), the severity's original kept; no answer leaves it as it was.
 */
export function applyTriage(event: Event, answer: TenantMetadata | undefined): Event {
  if (!answer) return event;
  const meta = { ...(event.tenant_metadata ?? {}) };
  if (answer.tags !== undefined) meta.tags = [...answer.tags];
  if (answer.notes !== undefined) meta.notes = answer.notes;
  if (answer.severity !== undefined) {
    const original = originalSeverity(event);
    meta.severity = answer.severity === null ? null : { original, override: answer.severity };
  }
  return { ...event, tenant_metadata: meta };
}

/** Whether `action` changes anything for an event in this state (ignore an ignored event: no). */
export function isApplicable(event: Event, action: EventActionType): boolean {
  const { ignoredAt, remediatedAt } = eventStatus(event);
  switch (action) {
    case 'ignore':
      return !ignoredAt;
    case 'unignore':
      return Boolean(ignoredAt);
    case 'remediate':
      return !remediatedAt;
    case 'unremediate':
      return Boolean(remediatedAt);
  }
}

/** Events of an infected machine (a stealer log, or a bot listing that sells one): their log can be opened. */
const INFECTED_DEVICE_TYPES: ReadonlySet<string> = new Set(['stealer_log', 'bot']);
export const isInfectedDevice = (event: Pick<Event, 'metadata'>): boolean =>
  INFECTED_DEVICE_TYPES.has(event.metadata.type);
