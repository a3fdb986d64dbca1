// The layer and feature rules of Vigil, checked by dependency-cruiser in `npm test` (`npm run deps`).
// A type-only import (`import type`, `import { type X }`) is erased at compile time and couples no code,
// so no rule counts it; every other import, export-from and dynamic import() does.
// Paths are relative to the repository root. test/dependency-rules.test.ts proves each rule can fail.
// `npm run deps` ignores the breaks listed in .dependency-cruiser-known-violations.json (written by
// `npx depcruise-baseline src packages --config .dependency-cruiser.cjs`): each is to be removed, none added.

/** What a rule counts: every dependency but a type-only one. */
const code = { dependencyTypesNot: ['type-only'] };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-imports-no-feature',
      severity: 'error',
      comment:
        'A feature is the unit of change: what two features share belongs in src/domain/, so that one feature can be changed, moved or removed without touching another.',
      from: { path: '^src/features/([^/]+)/' },
      // Types too: a feature declares the other services it uses by what it calls (its deps.ts).
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'only-main-imports-app',
      severity: 'error',
      comment:
        'src/app/ is the composition root that wires everything together; a module below it that reached back into it would depend on the whole product (and on its configuration) instead of on what it is given.',
      from: { path: '^src/', pathNot: ['^src/main\\.ts$', '^src/app/'] },
      to: { ...code, path: '^src/app/' },
    },
    {
      name: 'only-app-imports-features',
      severity: 'error',
      comment:
        'Features are plugged in by the composition root alone; a layer below that imported a feature would make the shared code depend on one capability.',
      from: { path: '^src/', pathNot: ['^src/main\\.ts$', '^src/app/', '^src/features/'] },
      to: { ...code, path: '^src/features/' },
    },
    {
      name: 'kernel-imports-nothing-of-vigil',
      severity: 'error',
      comment:
        'The kernel (clock, logger, errors, net, env readers) is what every layer stands on; importing anything of Vigil from it would make the bottom layer depend on the layers above.',
      from: { path: '^src/kernel/' },
      to: { ...code, path: '^(src|packages)/', pathNot: '^src/kernel/' },
    },
    {
      name: 'api-client-knows-no-vigil-above-it',
      severity: 'error',
      comment:
        'The API client speaks Flare’s API and nothing else: it knows no store, no Slack, no domain, no feature and no configuration, so it can be used, tested and replaced on its own.',
      from: { path: '^src/api/' },
      to: {
        ...code,
        path: [
          '^src/(store|domain|slack|features|app|web|observability)/',
          '^src/main\\.ts$',
          '^packages/',
          '(^|/)node_modules/@slack/',
        ],
      },
    },
    {
      name: 'store-knows-no-vigil-above-it',
      severity: 'error',
      comment:
        'The store keeps records and knows no workflow: it imports neither the API client nor Slack, the domain, a feature or the composition root, so what is stored never depends on how it is used.',
      from: { path: '^src/store/' },
      to: {
        ...code,
        path: [
          '^src/(api|domain|slack|features|app|web|observability)/',
          '^src/main\\.ts$',
          '^packages/',
          '(^|/)node_modules/@slack/',
        ],
      },
    },
    {
      name: 'slack-plumbing-knows-no-product',
      severity: 'error',
      comment:
        'src/slack/ is plumbing (receiver, router, Block Kit kit, grammar) that features build on; plumbing that imported the domain, a feature or the composition root would turn the dependency upside down.',
      from: { path: '^src/slack/' },
      to: { ...code, path: ['^src/(domain|features|app)/', '^src/main\\.ts$'] },
    },
    {
      name: 'services-know-no-slack',
      severity: 'error',
      comment:
        'Services, repositories, schedulers and models hold the product’s rules apart from how Slack shows them, so they are driven by the clock, the playground and tests without a Slack request; what Slack needs is done in the listeners and blocks around them.',
      // Named by their file (service.ts, *-service.ts, *-repo.ts, scheduler.ts, *-model.ts…): a feature's other
      // modules that know no Slack (poll.ts, run.ts, collect.ts…) have no name that says so and are not covered.
      from: {
        path: [
          '^src/(features/[^/]+|domain|domain/[^/]+)/(service|repo|scheduler|model)\\.ts$',
          '^src/(features/[^/]+|domain|domain/[^/]+)/[^/]+-(service|repo|scheduler|model)\\.ts$',
        ],
      },
      to: { ...code, path: ['^src/slack/', '(^|/)node_modules/@slack/'] },
    },
    {
      name: 'product-imports-no-package',
      severity: 'error',
      comment:
        'The product ships without the playground and the simulators: packages/ is another package that builds on src/, never the other way round.',
      from: { path: '^src/' },
      to: { ...code, path: '^packages/' },
    },
    {
      name: 'simulators-import-no-product',
      severity: 'error',
      comment:
        'The simulators implement the published contracts (Flare’s API, Slack’s Web API) on their own, so a test against them checks Vigil against the contract and not against Vigil’s own reading of it.',
      from: { path: '^packages/playground/src/sim/' },
      to: { ...code, path: '^src/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle makes its modules one unit that can be neither understood, tested nor loaded in part; whatever both sides need belongs in a module they both import.',
      // Types too: a cycle of types is still one unit to read.
      from: { path: '^(src|packages/[^/]+/src)/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment:
        'An import the checker cannot resolve is one no rule above can see; every import of src/ and packages/ resolves to a file or an installed package.',
      from: { path: '^(src|packages)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Cruise Vigil's own modules; an installed package is a leaf, never followed.
    doNotFollow: { path: 'node_modules' },
    // Read TypeScript before compilation, so type-only imports are seen and labelled 'type-only' (then not counted).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
