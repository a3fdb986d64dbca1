// `npm start`, `npm run demo` and `npm run dev`: the playground when nothing says a real Slack app is meant,
// Vigil itself otherwise. Vigil (src/main.ts) knows nothing of the playground: it refuses to start without
// its Slack settings. The choice is made here, outside the product, and the chosen entry runs in this very
// process (a signal sent to `npm start` reaches it).

const args = process.argv.slice(2);

/**
 * A real Slack app is meant in production, or as soon as any Slack or Vigil variable is set (even empty:
 * Vigil then names it). VIGIL_PLAYGROUND_HOST is the playground's own setting, so it asks for nothing else.
 */
function realAppMeant(env) {
  if (env.NODE_ENV === 'production') return true;
  return Object.keys(env).some((name) => /^(SLACK|VIGIL)_/.test(name) && name !== 'VIGIL_PLAYGROUND_HOST');
}

const playground = args.includes('--playground') || !realAppMeant(process.env);
// --source (npm run dev, under tsx): the TypeScript sources; the build in dist/ otherwise.
const entry = args.includes('--source')
  ? playground
    ? '../packages/playground/src/playground/main.ts'
    : '../src/main.ts'
  : playground
    ? '../dist/packages/playground/src/playground/main.js'
    : '../dist/src/main.js';
await import(new URL(entry, import.meta.url).href);
