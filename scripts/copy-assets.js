// Part of `npm run build`: files the compiled code reads at run time besides its own JavaScript.
import { cpSync } from 'node:fs';

cpSync('packages/playground/src/playground/assets', 'dist/packages/playground/src/playground/assets', {
  recursive: true,
});
// The published API documents the simulated API validates every request against (the playground runs it).
for (const doc of ['firework-v4-openapi.json', 'firework-v2-swagger.json']) {
  cpSync(
    `packages/playground/src/sim/api/openapi/${doc}`,
    `dist/packages/playground/src/sim/api/openapi/${doc}`,
  );
}
// The published identity provider documents the simulated Entra ID holds requests to (the playground runs it).
for (const doc of ['graph-openapi.json', 'entra-token-openapi.json']) {
  cpSync(`packages/playground/src/sim/identity/${doc}`, `dist/packages/playground/src/sim/identity/${doc}`);
}
for (const doc of ['okta-openapi.json'])
  cpSync(`packages/playground/src/sim/identity/${doc}`, `dist/packages/playground/src/sim/identity/${doc}`);
