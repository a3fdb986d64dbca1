/**
 * The playground's identity provider: a simulated Microsoft Entra ID whose directory holds the people of a few
 * leaked credentials (matched by mail, as a real directory would be), connected at start as an admin connects
 * it through the form. With one person at the page there is no second approver, so the playground turns
 * `contain-approval` off at start (audited; `/vigil settings contain-approval on` turns it back).
 */
import { randomUUID } from 'node:crypto';
import type { VigilCore } from '../../../../src/app/services.js';
import type { SimApi } from '../sim/api/index.js';
import { type SimDirectoryUser, type SimEntra, startSimEntra } from '../sim/identity/index.js';

/** How many leaked identities the directory holds. */
const PEOPLE = 6;

export function startPlaygroundEntra(sim: SimApi, now: () => number): Promise<SimEntra> {
  const identities = [
    ...new Set(
      sim.state.credentials
        .map((c) => c.identity_name)
        .filter((name) => name.includes('@') && !/(gmail|mail)\.example$/.test(name)),
    ),
  ].slice(0, PEOPLE);
  const users = identities.map(
    (mail, i): SimDirectoryUser => ({
      id: randomUUID(),
      displayName: mail.split('@')[0]?.replace(/[._]/g, ' ') ?? mail,
      userPrincipalName: mail,
      mail,
      accountEnabled: true,
      userType: 'Member',
      lastSignInDateTime: new Date(now() - (i + 1) * 3_600_000).toISOString(),
      ...(i % 2 === 0 ? { risk: { riskLevel: 'medium', riskState: 'atRisk' } } : {}),
    }),
  );
  return startSimEntra({ users, now });
}

export async function connectEntraAsAdmin(
  deps: Pick<VigilCore, 'containment'>,
  entra: SimEntra,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await deps.containment.connect(
    workspaceId,
    { provider: 'entra', tenant: entra.tenantId, clientId: entra.clientId },
    entra.clientSecret,
    userId,
  );
  await deps.containment.setApproval(workspaceId, false, userId);
}
