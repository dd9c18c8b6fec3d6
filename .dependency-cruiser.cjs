// The import rules of src/, drawn in src/README.md: floors from the bottom up. A file may import its own
// floor and the floors below it; an import up a floor is allowed only where UPWARD says why. `npm run deps`
// prints every broken rule; src/layers.test.ts fails on them.

const { FLOORS, UPWARD } = require('./scripts/floors.cjs');

const floorPath = (floor) => `^src/${floor.replace('.', '\\.')}${floor.endsWith('.ts') ? '$' : '/'}`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'a file never imports itself back', from: {}, to: { circular: true } },
    ...FLOORS.slice(0, -1).map((floor, i) => ({
      name: `${floor}-imports-down`,
      severity: 'error',
      comment: `src/${floor} imports only its own floor and those below it`,
      from: { path: floorPath(floor) },
      to: {
        path: FLOORS.slice(i + 1).map(floorPath).join('|'),
        pathNot: UPWARD.filter((u) => u.from.startsWith(`src/${floor}`)).map((u) => `^${u.to}$`).join('|') || '^$',
      },
    })),
    {
      name: 'every-file-on-a-floor',
      severity: 'error',
      comment: 'a new folder of src/ gets a floor here and a paragraph in src/README.md',
      from: { path: '^src/', pathNot: FLOORS.map(floorPath).join('|') },
      to: {},
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
