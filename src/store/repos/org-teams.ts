/**
 * The workspaces of an organization that installed Vigil org-wide. Under one org installation each workspace
 * stays its own (its connection, settings, subscriptions and audit are keyed by its team id); what the
 * organization shares is the installation, keyed by the enterprise id. This index says which installation
 * serves a workspace (Vigil's own posts have no request to say it) and which workspaces an org admin sees and
 * an org uninstall forgets. Both keys start with the id they are forgotten with.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { readRecord } from './records.js';

const TeamSchema = z.object({ enterpriseId: z.string().min(1), since: z.number() });

export class OrgTeams {
  private readonly byTeam: Namespace;
  private readonly byOrg: Namespace;
  /** Teams this process has recorded: a request of an org-wide install writes once per team, not each time. */
  private readonly known = new Set<string>();

  constructor(
    store: Store,
    private readonly clock: Clock,
  ) {
    this.byTeam = openNamespace(store, 'org-team');
    this.byOrg = openNamespace(store, 'org-teams');
  }

  /** A workspace of `enterpriseId` was served through the org's installation. */
  async remember(teamId: string, enterpriseId: string): Promise<void> {
    const id = `${enterpriseId}:${teamId}`;
    if (this.known.has(id)) return;
    const record = { enterpriseId, since: this.clock.now() };
    // The organization's list first: a team listed without its own record is forgotten with the org anyway.
    await this.byOrg.set(id, record);
    await this.byTeam.set(teamId, record);
    this.known.add(id);
  }

  /** The organization whose installation serves this workspace, when it is one of an org-wide install. */
  async enterpriseOf(teamId: string): Promise<string | undefined> {
    return (await readRecord(this.byTeam, teamId, TeamSchema))?.enterpriseId;
  }

  /** The workspaces of the organization Vigil has served. */
  async teamsOf(enterpriseId: string): Promise<string[]> {
    const keys = await this.byOrg.keys(`${enterpriseId}:`);
    return keys.map((k) => k.slice(enterpriseId.length + 1)).sort();
  }

  /** The workspace left the organization's installation (its own data is forgotten separately). */
  async forgetTeam(teamId: string): Promise<void> {
    const enterpriseId = await this.enterpriseOf(teamId);
    if (enterpriseId !== undefined) {
      await this.byOrg.delete(`${enterpriseId}:${teamId}`);
      this.known.delete(`${enterpriseId}:${teamId}`);
    }
    await this.byTeam.delete(teamId);
  }
}
