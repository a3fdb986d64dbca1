/** `npm run sim:api`: the simulated threat-intel API for local play, on PORT (default 8787). */
import { startSimApi } from './index.js';

const port = Number(process.env.PORT ?? 8787);
const sim = await startSimApi({ port });
const key = sim.keys[0];
const family = sim.state.family;
const identifier = sim.state.identifiersOf(key?.defaultTenantId ?? 0)[0];

console.log(`Simulated threat-intel API on ${sim.url}`);
for (const k of sim.keys) {
  console.log(
    `  API key ${k.apiKey}  (key id ${k.apiKeyId}, organization ${k.organizationId}, tenants ${k.tenantIds.join(', ')}, ` +
      `default ${k.defaultTenantId}${k.features.sandbox ? '' : ', no sandbox/reports'})`,
  );
}
if (key) {
  console.log('\nTry:');
  console.log(
    `  TOKEN=$(curl -s -X POST ${sim.url}/tokens/generate -H 'Authorization: ${key.apiKey}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
  );
  console.log(
    `  curl -s -X POST ${sim.url}/${family}/v4/events/identifiers/${identifier?.id ?? 3001}/_search ` +
      `-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"size": 3}'`,
  );
}
console.log('\nCtrl-C to stop.');

process.once('SIGINT', () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
