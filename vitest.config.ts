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
// Three workers, not Vitest's default of one on this 2-core machine: the integration files mostly wait on
// the processes, servers and databases they start (with one worker the whole run took twice as long).
// A test's time limit is 20 s, not Vitest's 5: the property tests run thousands of cases (a second or two
// alone) and timed out at 5 s on a machine busy with other work. A hang still fails, 15 s later.
export default defineConfig({
  test: {
    maxWorkers: 3,
    testTimeout: 20_000,
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
