// Part of `npm run build`: files the compiled code reads at run time besides its own JavaScript.
import { cpSync } from 'node:fs';

cpSync('src/playground/assets', 'dist/src/playground/assets', { recursive: true });
// The published API documents the simulated API validates every request against (the playground runs it).
for (const doc of ['firework-v4-openapi.json', 'firework-v2-swagger.json']) {
  cpSync(`src/sim/api/openapi/${doc}`, `dist/src/sim/api/openapi/${doc}`);
}
