/** What the containment commands and buttons use: the service, and the leaked credentials they start from. */
import type { SlackBase } from '../../slack/context.js';
import type { Verdict } from './blocks.js';
import type { ContainmentService } from './service.js';

/**
 * A leaked credential as containment sees it: whose identity, and what Flare can mark remediated after the
 * containment: the credential row (`credentials/actions`), or else the event it was shown from (an alert
 * card's, a stealer log's or a panel's: `events/actions`).
 */
interface LeakedCredential {
  identity: string;
  credential?: { id: number; hash: string };
  event?: { uid: string };
}

/** The credentials a button points at, reached through the composition root (features never import each other). */
export interface LeakedCredentials {
  /** The leak a credential row's button value names, in the clicker's workspace; undefined when gone. */
  find(workspaceId: string, ref: string): Promise<LeakedCredential | undefined>;
  /**
   * Flare's verdict events for the identity (`valid_credential`, `invalid_credential`, `mitigated_credential`),
   * newest first; undefined when the API could not be read (the card says so and goes on).
   */
  verdicts(workspaceId: string, identity: string): Promise<Verdict[] | undefined>;
  /**
   * Marks it remediated in Flare: the credential (`credentials/actions`) when known, else the event
   * (`events/actions`), recorded and audited by the credentials or events feature.
   */
  remediate(workspaceId: string, by: string, leak: LeakedCredential): Promise<void>;
}

export interface ContainmentDeps extends SlackBase {
  containment: ContainmentService;
  leaks: LeakedCredentials;
}
