import type { ToolEffect } from '../../src/tools/define-tool.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'shell-edits';
const family = guardClassFamily(guardClass);

const JEST_FAILURE = [
  'FAIL src/slugify.test.ts',
  '  ● slugify › keeps digits',
  '    expected "release-2-0" but received "release--"',
  'Tests: 1 failed, 17 passed, 18 total',
].join('\n');
const JEST_PASS = 'PASS src/slugify.test.ts\nTests: 18 passed, 18 total';

const PYTEST_FAILURE = [
  'F.......                                                   [100%]',
  'FAILED tests/test_dates.py::test_parse_week - AssertionError: assert 52 == 1',
  '1 failed, 7 passed in 0.12s',
].join('\n');
const PYTEST_PASS = '........                                                   [100%]\n8 passed in 0.11s';

const GO_FAILURE =
  './internal/ledger/balance.go:41:9: cannot use total (variable of type int64) as int value';

/**
 * The agent's only tool: `bash`, of unknown effect (as a shell is), or a declared write. `run` answers a
 * command from a little repository: the edits it has taken, the output of its test command.
 */
function bashTool(run: (command: string) => string, effect: ToolEffect = 'unknown') {
  return defineTool({
    name: 'bash',
    description: 'Runs a shell command in the repository and returns its output.',
    input: stringInput('command'),
    effect,
    execute: ({ command }: { command: string }) => run(command),
    // A shell's output is text: the model reads it as printed.
    formatResult: (output: string) => output,
  });
}

/** A repository whose tests pass once the edit `fix` ran: `test` runs them, any other command is an edit. */
function repository(test: string, failure: string, pass: string, fix: string) {
  let fixed = false;
  return (command: string) => {
    if (command === test) return fixed ? pass : failure;
    if (command === fix) fixed = true;
    return '';
  };
}

/** Runs the tests; after each failure, the next edit of `edits` (the last one again once they run out). */
function editTestModel(test: string, edits: readonly string[], passed: string, answer: string) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool?.content.includes(passed) === true) return { answer };
      if (lastTool === undefined || lastTool.content === '')
        return { calls: [{ name: 'bash', arguments: { command: test } }] };
      const edit = edits[Math.min(Math.floor(toolMessages.length / 2), edits.length - 1)] as string;
      return { calls: [{ name: 'bash', arguments: { command: edit } }] };
    },
    lastWords: 'The failing test still fails.',
  });
}

const SLUG_EDITS = [
  "sed -i 's/[^a-z]/-/g' src/slugify.ts",
  "sed -i 's/-+/-/g' src/slugify.ts",
  "sed -i 's/\\[^a-z\\]/[^a-z0-9]/' src/slugify.ts",
];

const fixSlug = [{ role: 'user', content: 'The slugify test fails on digits: fix it.' }] as const;

export const v3ShellScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'bash: same jest failure 3 times, then a pass',
    description: 'bash (effect unknown) runs npm test, edits with sed; the same failure 3 times, then a pass',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: editTestModel('npm test', SLUG_EDITS, 'PASS', 'slugify keeps digits now; all 18 tests pass.'),
      tools: [bashTool(repository('npm test', JEST_FAILURE, JEST_PASS, SLUG_EDITS[2] as string))],
      messages: fixSlug,
      check: expectRounds(8),
    }),
  },
  {
    family,
    guardClass,
    name: 'bash (a write): pytest fails alike 3 times',
    description: 'bash declared a write: pytest, a perl edit, pytest ...; one failure 3 times, then a pass',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const edits = [
        "perl -pi -e 's/isocalendar\\(\\)\\[1\\]/isocalendar().week/' app/dates.py",
        "perl -pi -e 's/%W/%V/' app/dates.py",
        "perl -pi -e 's/%Y-%V/%G-%V/' app/dates.py",
      ];
      const test = 'pytest -q tests/test_dates.py';
      return {
        model: editTestModel(test, edits, '8 passed', 'parse_week uses the ISO year now; 8 tests pass.'),
        tools: [bashTool(repository(test, PYTEST_FAILURE, PYTEST_PASS, edits[2] as string), 'write')],
        messages: [{ role: 'user', content: 'test_parse_week fails for 2027-01-01: fix it.' }],
        check: expectRounds(8),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'bash: go build, edit, git diff, go build',
    description: 'the same compile error 3 times, each edit followed by git diff (new each time), then ok',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const edits = [
        "sed -i '41s/total/int(total)/' internal/ledger/balance.go",
        "sed -i 's/func sum(xs \\[\\]int64) int /func sum(xs []int64) int64 /' internal/ledger/balance.go",
        "sed -i 's/Balance int /Balance int64 /' internal/ledger/account.go",
      ];
      const applied: string[] = [];
      const run = (command: string) => {
        if (command === 'go build ./...') return applied.length === edits.length ? 'ok' : GO_FAILURE;
        if (command === 'git diff --stat')
          return `${applied.map((_, i) => ` internal/ledger/file${i}.go | 2 +-`).join('\n')}\n ${applied.length} files changed`;
        applied.push(command);
        return '';
      };
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content === 'ok')
            return { answer: 'The ledger builds: balances are int64 throughout.' };
          const next =
            lastTool === undefined || lastTool.content.startsWith(' internal')
              ? 'go build ./...'
              : lastTool.content === ''
                ? 'git diff --stat'
                : (edits[Math.floor(toolMessages.length / 3)] as string);
          return { calls: [{ name: 'bash', arguments: { command: next } }] };
        },
        lastWords: 'The ledger still does not build.',
      });
      return {
        model,
        tools: [bashTool(run)],
        messages: [{ role: 'user', content: 'go build fails in internal/ledger: fix it.' }],
        check: expectRounds(11),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'bash: the same sed, again and again',
    description: 'npm test fails; the same sed edit; the same failure; the same sed again, ...',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 re-sends the edit of round 2, which changes nothing: from there every round repeats.
    evidentAt: 4,
    period: 2,
    build: () => ({
      model: editTestModel('npm test', SLUG_EDITS.slice(0, 1), 'PASS', 'Fixed.'),
      tools: [bashTool(repository('npm test', JEST_FAILURE, JEST_PASS, SLUG_EDITS[2] as string))],
      messages: fixSlug,
    }),
  },
  {
    family,
    guardClass,
    name: 'bash: one edit under three sed spellings',
    description:
      "s/-+/-/g, then s|-+|-|g, s#-+#-#g (one edit, other delimiters): npm test's failure never changes",
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 sends the edit of round 2 again under other delimiters; the tests of round 5 repeat.
    evidentAt: 4,
    build() {
      const spellings = [
        "sed -i -E 's/-+/-/g' src/slugify.ts",
        "sed -i -E 's|-+|-|g' src/slugify.ts",
        "sed -i -E 's#-+#-#g' src/slugify.ts",
      ];
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool === undefined || lastTool.content === '')
            return { calls: [{ name: 'bash', arguments: { command: 'npm test' } }] };
          const edit = spellings[Math.floor(toolMessages.length / 2) % spellings.length] as string;
          return { calls: [{ name: 'bash', arguments: { command: edit } }] };
        },
        lastWords: 'The slugify test still fails.',
      });
      return {
        model,
        tools: [bashTool(repository('npm test', JEST_FAILURE, JEST_PASS, SLUG_EDITS[2] as string))],
        messages: fixSlug,
      };
    },
  },
  {
    family,
    guardClass,
    name: 'bash: the same tests under four spellings',
    description: 'npm test, npm run test, npx jest, npx jest --ci, npm test, ...: no edit, the same failure',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const spellings = ['npm test', 'npm run test', 'npx jest', 'npx jest --ci'];
      const model = createAgentModel({
        decide: ({ toolMessages }) => ({
          calls: [
            { name: 'bash', arguments: { command: spellings[toolMessages.length % spellings.length] } },
          ],
        }),
        lastWords: 'The slugify test fails.',
      });
      return {
        model,
        tools: [bashTool((command) => (spellings.includes(command) ? JEST_FAILURE : ''))],
        messages: [{ role: 'user', content: 'Does the slugify test pass?' }],
      };
    },
  },
];
