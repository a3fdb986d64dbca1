/** Where the request under way was made, carried through its async work (every layer may ask). */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where people act: a slash command, a button, a form (modal), App Home, a workflow step (`via workflow <run>`,
 * Slack's events name the run, not the workflow), Vigil's own pages, an MCP client (Slackbot or an agent, `/mcp`).
 */
export type AuditSurface =
  | 'command'
  | 'button'
  | 'form'
  | 'home'
  | 'workflow'
  | `via workflow ${string}`
  | 'page'
  | 'mcp'
  // Vigil's agent DM (its streamed answers run the same handlers as the commands).
  | 'agent';

const surfaces = new AsyncLocalStorage<AuditSurface>();

/** Runs `work` (and everything it awaits) as done from `surface`. */
export function onSurface<T>(surface: AuditSurface, work: () => T): T {
  return surfaces.run(surface, work);
}

/** The surface of the request under way; undefined for Vigil's own background work. */
export function currentSurface(): AuditSurface | undefined {
  return surfaces.getStore();
}
