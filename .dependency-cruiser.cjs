// The import graph, with type-only imports counted (tsPreCompilationDeps): ESLint's import-x/no-cycle skips
// `import type`, so a cycle made only of types passes it; this check does not. The layer rules are those of
// docs/architecture.md#layers and #import-boundaries. Run by `npm run graph` and `npm run lint`.
'use strict';

/** No cycles, runtime or type-only: a type two modules share lives in its own module (docs/architecture.md). */
const cycleRules = [
  {
    name: 'no-circular',
    severity: 'error',
    comment: 'Import cycles, type-only included: move the shared types to a module of their own.',
    from: {},
    to: { circular: true },
  },
];

/** The layers of docs/architecture.md#layers: which top-level folder may import which. One rule per layer. */
const layerRules = [
  {
    name: 'shared-imports-nothing-above',
    severity: 'error',
    comment: 'shared/ imports nothing from the layers above it.',
    from: { path: '^shared/' },
    to: { path: '^(functions|infra|web|cli|tests|bench)/' },
  },
  {
    name: 'functions-import-shared-only',
    severity: 'error',
    comment: 'functions/ depends on shared/ only.',
    from: { path: '^functions/' },
    to: { path: '^(infra|web|cli|tests|bench)/' },
  },
  {
    name: 'web-uses-shared-domain-only',
    severity: 'error',
    comment: 'The site never imports functions/, infra/, cli/ or shared/definitions/table.',
    from: { path: '^web/' },
    to: { path: '^(functions|infra|cli|shared/definitions/table)/' },
  },
  {
    name: 'cli-not-web-tests-bench',
    severity: 'error',
    comment: 'cli/ never imports the site, the tests or the benchmarks.',
    from: { path: '^cli/' },
    to: { path: '^(web|tests|bench)/' },
  },
];

/** shared/ in layers (docs/architecture.md#shared-in-layers): each layer imports only the layers below it. */
const sharedLayers = require('./shared/layers.json');
const sharedLayerRules = Object.entries(sharedLayers).map(([layer, below]) => ({
  name: `shared-${layer}-imports-below-only`,
  severity: 'error',
  comment: `shared/${layer} imports only ${below.length ? below.join(', ') : 'itself'}.`,
  from: { path: `^shared/${layer}/` },
  to: { path: '^shared/', pathNot: `^shared/(${[layer, ...below].join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [...cycleRules, ...layerRules, ...sharedLayerRules],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|web/dist|cli/dist|test-output|coverage)/' },
    // Type-only imports are edges too: a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    // The #aliases are package.json "imports", which tsconfig.json (NodeNext) resolves; web/ has its own tsconfig but
    // the same aliases.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
