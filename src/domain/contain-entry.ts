/**
 * Where containment starts from another feature's card: the action id of *Contain…*, whose value is the
 * card's own ref (a credential row's `<context>:<index>`). Here so that neither feature imports the other.
 */
export const CONTAIN_OPEN = 'contain_open';

/** Whether the workspace has an identity provider to contain in (the button is shown only then). */
export interface ContainEntry {
  connected(workspaceId: string): Promise<boolean>;
}
