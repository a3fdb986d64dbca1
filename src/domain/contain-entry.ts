/**
 * Where containment starts from another feature's card: the action id of *Contain…*, whose value is the
 * card's own ref — a credential row's `<context>:<index>`, an alert card's event `ev:<context>:<index>`, a
 * stealer log entry's `sl:<context>:<index>` or a Work Object panel's event `wo:<uid>`. Here so that no feature imports another.
 */
import type { Event } from '../api/index.js';

export const CONTAIN_OPEN = 'contain_open';
/** *Contain…* in a Work Object's side panel: no response_url there, so the card is posted to the viewer. */
export const CONTAIN_OPEN_PANEL = 'contain_open_panel';

/** Whether the workspace has an identity provider to contain in (the button is shown only then). */
export interface ContainEntry {
  connected(workspaceId: string): Promise<boolean>;
}

/** The event types that name a leaked login (Flare's verdict types included, where the API carries them). */
const CONTAINABLE_TYPES: ReadonlySet<string> = new Set([
  'leaked_credential',
  'stealer_log',
  'valid_credential',
  'invalid_credential',
  'mitigated_credential',
]);

const ADDRESS = /[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+/gi;
const ONE_ADDRESS = /^[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/i;

/** A stealer log login that is an e-mail or UPN, lower-cased; undefined for anything else. */
export function loginIdentity(label: string): string | undefined {
  const l = label.trim();
  return ONE_ADDRESS.test(l) ? l.toLowerCase() : undefined;
}

/**
 * The one identity (e-mail or UPN) a leaked-credential or stealer-log event names, in its identifiers or its
 * highlights; undefined when it names none or several (containment never picks one for the reader).
 */
export function eventIdentity(event: Event): string | undefined {
  if (!CONTAINABLE_TYPES.has(event.metadata.type)) return undefined;
  const texts = [
    ...(event.identifiers ?? []).map((i) => i.name),
    ...Object.values(event.highlights ?? {})
      .flat()
      .map((f) => f.replace(/<[^<>]*>/g, '')),
  ];
  const found = new Set(texts.flatMap((t) => t.match(ADDRESS) ?? []).map((e) => e.toLowerCase()));
  return found.size === 1 ? [...found][0] : undefined;
}

/** The *Contain…* value of an event row and of a stealer log entry (a credential row's is its ref alone). */
export const containEventRef = (eventRef: string): string => `ev:${eventRef}`;
export const containStealerRef = (ctxId: string, index: number): string => `sl:${ctxId}:${index}`;
/** A panel's event by its uid (the panel resolves it again, in the viewer's workspace and tenant). */
export const containPanelRef = (uid: string): string => `wo:${uid}`;

/** What a *Contain…* value names; undefined for anything that is not one of ours (values are untrusted). */
export function parseContainRef(
  value: string,
): { kind: 'credential' | 'event' | 'stealer' | 'panel'; ref: string } | undefined {
  if (value.startsWith('ev:')) return { kind: 'event', ref: value.slice(3) };
  if (value.startsWith('wo:')) return { kind: 'panel', ref: value.slice(3) };
  if (value.startsWith('sl:')) return { kind: 'stealer', ref: value.slice(3) };
  return value === '' ? undefined : { kind: 'credential', ref: value };
}
