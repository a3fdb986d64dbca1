/** What each of Vigil's workflow steps uses, apart: the step runner's part, and each step's own services. */

import type { CredentialSearchInput } from '../../api/index.js';
import type { AuditTrail } from '../../domain/audit.js';
import type { EventActing, EventSearching } from '../../domain/events/ports.js';
import type { IdentifierDirectory } from '../../domain/identifiers.js';
import type { SlackBase } from '../../slack/context.js';
import type { Grammar } from '../../slack/grammar/index.js';
import type { Settings } from '../../store/index.js';
import type { CredentialLine } from './blocks.js';
import type { StepRuns } from './runs.js';

/*
 * The other features' services as the steps use them, each declared here by what the steps call: the
 * composition root hands over the credentials, events, digests, settings and tenants services.
 */

/** A credentials search saved as the command's would be: its masked lines, and whether more follow. */
interface CredentialSearching {
  search(req: {
    workspaceId: string;
    userId: string;
    channelId: string;
    commandText: string;
    input: CredentialSearchInput;
    limit?: number;
  }): Promise<{ ctx: { rows: readonly CredentialLine[]; cursor?: string | undefined } }>;
  /** A masked summary shared in a channel, audited as a share from `/vigil creds` is. */
  recordShare: AuditTrail['record'];
}

/** A digest subscription, and its digest posted now. */
interface DigestPosting {
  get(workspaceId: string, id: string): Promise<{ id: string; createdBy: string }>;
}
interface DigestNow {
  post(workspaceId: string, subscriptionId: string): Promise<{ channelId: string; ts: string }>;
}

/** The Tenant menu's options: the API key's tenants, a page at a time. */
interface TenantPages {
  page(req: {
    workspaceId: string;
    userId: string;
  }): Promise<{ tenants: readonly { id: number | undefined; name: string }[] }>;
}

/** What running any step uses: its runs (each completes once), and what a step may reach without an admin. */
export interface StepDeps extends SlackBase {
  steps: StepRuns;
  scope: {
    /** Who may search (the permissions): a workflow without a person searches only what is open to everyone. */
    settings(workspaceId: string): Promise<Settings>;
    /** The tenants the workspace already uses (its own, its subscriptions'): a step may name them without an admin. */
    tenantsInUse(workspaceId: string): Promise<ReadonlySet<number>>;
  };
}

/**
 * How a search step reads its inputs: it builds `/vigil` words from them and parses those with the slash
 * command's grammar; an identifier input, by id or by name, is looked up in the directory.
 */
interface SearchInputs {
  grammar: Grammar;
  identifiers: Pick<IdentifierDirectory, 'missing' | 'resolve'>;
}

export interface CredentialSearchStepDeps extends StepDeps {
  inputs: Pick<SearchInputs, 'grammar'>;
  credentials: CredentialSearching;
}

export interface EventSearchStepDeps extends StepDeps {
  inputs: SearchInputs;
  events: EventSearching & Pick<EventActing, 'generationOf'>;
}

export interface ActStepDeps extends StepDeps {
  events: EventActing;
}

export interface DigestStepDeps extends StepDeps {
  digests: DigestPosting;
  /** One subscription's digest posted now. */
  digestNow: DigestNow;
}

/** Asking a person to decide, and their click on the decision buttons (audited). */
export interface DecisionStepDeps extends StepDeps {
  audit: AuditTrail;
}

/** The Tenant menu the steps share. */
export interface TenantStepDeps extends StepDeps {
  tenants: TenantPages;
}
