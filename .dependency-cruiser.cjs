// The import rules of src/ (drawn in src/README.md). `npm run deps` prints every broken rule;
// src/layers.test.ts fails on them.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'a file never imports itself back', from: {}, to: { circular: true } },
    {
      name: 'core-imports-nothing-else',
      severity: 'error',
      comment: 'src/core/ is the vocabulary: it imports only src/core/',
      from: { path: '^src/core/', pathNot: '\\.test\\.ts$|__fixtures__' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    includeOnly: '^src/',
    exclude: { path: '\\.test\\.ts$|__fixtures__' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
