/**
 * `npm run sim:identity`: the simulated Microsoft Entra ID (token endpoint and Graph) and Okta for local play
 * against a Vigil of your own, each request held to the published documents. Prints the variables to give
 * Vigil and the commands (and secrets to paste into the form) that connect each (Okta with its API token or as
 * its OAuth 2.0 service app, which requires DPoP), with a few directory users.
 */
import { startSimEntra } from './entra-sim.js';
import { startSimOkta } from './okta-sim.js';

const people = ['dana.lee', 'sam.ortiz', 'kim.nguyen'];
const entra = await startSimEntra({
  users: people.map((name, i) => ({
    id: `00000000-0000-4000-8000-00000000000${i + 1}`,
    displayName: name.replace('.', ' '),
    userPrincipalName: `${name}@acme.example`,
    mail: `${name}@acme.example`,
    accountEnabled: true,
    userType: 'Member',
    lastSignInDateTime: new Date(Date.now() - (i + 1) * 86_400_000).toISOString(),
  })),
});
const okta = await startSimOkta({
  users: people.map((name, i) => {
    const [firstName = name, lastName = ''] = name.split('.');
    const profile = { login: `${name}@acme.example`, email: `${name}@acme.example`, firstName, lastName };
    return { id: `00u${i + 1}sim`, status: 'ACTIVE' as const, lastLogin: null, profile };
  }),
});
const hosts = [new URL(entra.url).host, new URL(okta.url).host];
console.log('Give Vigil these variables:\n');
console.log(`VIGIL_ENTRA_LOGIN_URL=${entra.url}`);
console.log(`VIGIL_GRAPH_URL=${entra.url}`);
console.log(`VIGIL_IDP_ALLOWED_HOSTS=${hosts.join(',')}`);
console.log('\nThen in Slack, as an admin (paste the secret into the form Vigil opens):\n');
console.log(`  /vigil idp connect entra tenant:${entra.tenantId} client:${entra.clientId}`);
console.log(`    client secret: ${entra.clientSecret}`);
console.log(`  /vigil idp connect okta org:${okta.url}`);
console.log(`    API token: ${okta.token}`);
console.log(`  /vigil idp connect okta org:${okta.url} client:${okta.serviceApp.clientId}`);
console.log(`    private key (JWK): ${okta.serviceApp.privateJwk}`);
console.log(`\nDirectory users: ${people.map((p) => `${p}@acme.example`).join(', ')}`);
