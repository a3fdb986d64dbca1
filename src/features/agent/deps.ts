/** What Vigil's agent DM uses: the `/vigil` handlers it answers with, and the identifiers its prompts name. */
import type { BoundHandler, SlackBase } from '../../slack/context.js';
import type { CommandKind, Grammar } from '../../slack/grammar/index.js';
import type { PromptIdentifier } from './prompts.js';

export interface AgentDeps extends SlackBase {
  /** The `/vigil` subcommands' handlers, bound to their features: the DM answers with the same ones. */
  commands: () => Partial<Record<CommandKind, BoundHandler>>;
  /** The `/vigil` grammar of the same features: a message is read as the slash command would be. */
  grammar: Grammar;
  /** The workspace's identifiers (cached by the directory), for prompts that name them. */
  identifiers: { list(workspaceId: string): Promise<{ identifiers: readonly PromptIdentifier[] }> };
  /** Portal hosts whose event links name an event (VIGIL_PORTAL_HOSTS). */
  portalHosts: readonly string[];
}
