import { defineConfig } from 'vitest/config';
import { INTEGRATION } from './vitest.integration.js';

const ALL = [
  'src/**/*.test.ts',
  'test/**/*.test.ts',
  'examples/**/*.test.ts',
  'fuzz/**/*.test.ts',
  '*.test.ts',
];
/** Test files that replace a module (`vi.mock`): each needs a module graph of its own. */
const MOCKING = ['src/chain/find-shared-reads.test.ts', 'src/gate/every-text-through-the-gate.test.ts'];

// Test files share their workers' module graph (`isolate: false`): the library keeps no global mutable
// state, so a fresh graph per file bought nothing but the time to import it again (the suite took 2.5x as
// long). The files that mock a module keep their own. `npm test` runs the fast projects (shared, isolated);
// the integration project holds the files that start processes, servers or a browser (vitest.integration.ts).
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ALL, exclude: [...MOCKING, ...INTEGRATION], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
      { extends: true, test: { name: 'integration', include: [...INTEGRATION], isolate: false } },
    ],
  },
});
