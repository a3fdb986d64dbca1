/** The ask-person service over Vigil's parts: its records in the store, the bot's Slack, the tenant's identifiers. */
import type { Clock } from '../../kernel/clock.js';
import type { Logger } from '../../kernel/logger.js';
import type { BotClients } from '../../slack/bot-clients.js';
import type { GrantedScopes } from '../../slack/granted-scopes.js';
import type { NewAuditEntry } from '../../store/index.js';
import type { AskSettings } from './deps.js';
import { AskRecords, type OpenIndex, type RepoOf } from './records.js';
import { AskPersonService } from './service.js';
import { askSlackOf } from './slack.js';

export interface AskPersonParts {
  repo: RepoOf;
  /** The index of open asks (store/repos/ask-person-index.ts). */
  openAsks: OpenIndex;
  bots: Pick<BotClients, 'forWorkspace'>;
  scopes: Pick<GrantedScopes, 'has'>;
  /** The tenant's identifiers (cached by the identifier directory): its domains and e-mail addresses. */
  identifiers(workspaceId: string): Promise<{ name: string; kinds: string[] }[]>;
  audit: { append(entry: NewAuditEntry): Promise<unknown> };
  isAlive(owner: string): Promise<boolean>;
  clock: Clock;
  logger: Logger;
  owner: string;
  settings: AskSettings;
}

/** The company's domains: domain identifiers, and the domains of e-mail identifiers. */
function domainsOf(identifiers: readonly { name: string; kinds: string[] }[]): Set<string> {
  const domains = new Set<string>();
  for (const i of identifiers) {
    const name = i.name.trim().toLowerCase();
    if (i.kinds.includes('domain')) domains.add(name.replace(/^\*\./, ''));
    else if (i.kinds.includes('email') && name.includes('@'))
      domains.add(name.slice(name.lastIndexOf('@') + 1));
  }
  return domains;
}

export function buildAskPerson(parts: AskPersonParts): AskPersonService {
  const { settings } = parts;
  return new AskPersonService({
    records: new AskRecords(
      parts.repo,
      parts.openAsks,
      parts.clock,
      settings.cooldownMs + settings.escalateMs + 86_400_000,
    ),
    slack: askSlackOf(parts.bots),
    domains: async (workspaceId) => domainsOf(await parts.identifiers(workspaceId)),
    mayLookUpEmails: (workspaceId) => parts.scopes.has(workspaceId, 'users:read.email'),
    audit: parts.audit,
    isAlive: parts.isAlive,
    clock: parts.clock,
    logger: parts.logger,
    owner: parts.owner,
    settings,
  });
}
