/**
 * `npm run sim:api`: the simulated threat-intel API for local play, on PORT (default 8787). Prints the
 * variables to give Vigil (ready to paste) and the identifier ids to try in Slack. SIM_ANSWERS=lean|rich
 * answers with bodies generated from the published response schemas (see openapi/answers.ts).
 */
import { type AnswerMode, startSimApi } from './index.js';

const port = Number(process.env.PORT ?? 8787);
const mode = process.env.SIM_ANSWERS ?? 'seeded';
if (!['seeded', 'lean', 'rich'].includes(mode)) {
  console.error(`SIM_ANSWERS must be seeded, lean or rich, not ${mode}`);
  process.exit(2);
}
const sim = await startSimApi({ port, answers: mode as AnswerMode });
const key = sim.keys[0];
const family = sim.state.family;
const identifiers = key ? sim.state.identifiersOf(key.defaultTenantId) : [];
const tenant = sim.state.tenants.find((t) => t.id === key?.defaultTenantId);

console.log(
  `Simulated threat-intel API on ${sim.url} (${mode} answers; requests held to the published documents)\n`,
);
if (key) {
  console.log('Give Vigil these variables (paste them into its environment):\n');
  console.log(`VIGIL_API_URL=${sim.url}`);
  console.log(`VIGIL_API_KEY=${key.apiKey}`);
  console.log(`VIGIL_API_FAMILY=${family}`);
  console.log(
    `\nThe key's default tenant is ${key.defaultTenantId} (${tenant?.name ?? 'unnamed'}). Identifier ids to try:\n`,
  );
  for (const i of identifiers) {
    const events = sim.state.eventsOf(i.id).filter((e) => e.tenantId === i.tenantId).length;
    console.log(`  /vigil events ${i.id}    ${i.kind} "${i.name}", ${events} events`);
  }
}
console.log('\nOther keys (other organizations and tenants):');
for (const k of sim.keys.slice(1)) {
  console.log(
    `  ${k.apiKey}  (key id ${k.apiKeyId}, organization ${k.organizationId}, tenants ${k.tenantIds.join(', ')}, ` +
      `default ${k.defaultTenantId}${k.features.sandbox ? '' : ', no sandbox/reports'})`,
  );
}
if (key) {
  const identifier = identifiers[0];
  console.log('\nOr call it directly:');
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
