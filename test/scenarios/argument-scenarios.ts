import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The indentations the model tries, in order: only four spaces is valid YAML for this file. */
export const YAML_ATTEMPTS = [
  'spec:\n  port: 8080',
  'spec:\n   port: 8080',
  'spec:\n\tport: 8080',
  'spec:\n    port: 8080',
];

/** The names the model tries: the user typed two spaces; the record has one. */
const NAME_ATTEMPTS = ['Anna  Berg', 'Anna   Berg', 'Anna Berg'];

export const argumentScenarios: readonly ScenarioSpec[] = [
  {
    family: 'arguments',
    name: 'YAML indentation, linted',
    description:
      'lintYaml with 2 spaces, 3 spaces, a tab (the same error each time), then 4 spaces; then writeFile',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const lintYaml = defineTool({
        name: 'lintYaml',
        description: 'Checks a YAML snippet against the deploy schema (4-space indentation).',
        input: stringInput('text'),
        effect: 'read',
        execute: ({ text }: { text: string }) =>
          text.includes('\n    port') ? { valid: true } : { valid: false, error: 'line 2: bad indentation' },
      });
      const writeFile = defineTool({
        name: 'writeFile',
        description: 'Writes a file.',
        input: stringInput('path', 'text'),
        effect: 'write',
        execute: () => ({ ok: true }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.name === 'writeFile') return { answer: 'deploy.yaml now sets port 8080 under spec.' };
          if (lastTool?.content.includes('"valid":true') === true) {
            const text = YAML_ATTEMPTS.at(-1) as string;
            return { calls: [{ name: 'writeFile', arguments: { path: 'deploy.yaml', text } }] };
          }
          const text = YAML_ATTEMPTS[toolMessages.length] as string;
          return { calls: [{ name: 'lintYaml', arguments: { text } }] };
        },
        lastWords: 'I could not get the indentation of deploy.yaml right.',
      });
      return {
        model,
        tools: [lintYaml, writeFile],
        messages: [{ role: 'user', content: 'Set port 8080 under spec in deploy.yaml.' }],
        check: ({ roundTrips }) => (roundTrips === 6 ? [] : [`expected 6 rounds, got ${roundTrips}`]),
      };
    },
  },
  {
    family: 'arguments',
    name: 'replaceLines with other indentation',
    description:
      'replaceLines writes 2 spaces, 3 spaces, a tab (the same YAML error each time), then 4 spaces',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const replaceLines = defineTool({
        name: 'replaceLines',
        description: 'Replaces lines of a file and reports the YAML errors of the result.',
        input: stringInput('path', 'lines', 'text'),
        effect: 'write',
        execute: ({ text }: { text: string }) => ({
          applied: true,
          yamlErrors: text.includes('\n    port') ? [] : ['line 5: bad indentation'],
        }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"yamlErrors":[]') === true)
            return { answer: 'deploy.yaml is fixed.' };
          const text = YAML_ATTEMPTS[toolMessages.length] as string;
          return {
            calls: [{ name: 'replaceLines', arguments: { path: 'deploy.yaml', lines: '4-5', text } }],
          };
        },
        lastWords: 'I could not get the indentation of deploy.yaml right.',
      });
      return {
        model,
        tools: [replaceLines],
        messages: [{ role: 'user', content: 'Set port 8080 under spec in deploy.yaml.' }],
        check: ({ roundTrips }) => (roundTrips === 5 ? [] : [`expected 5 rounds, got ${roundTrips}`]),
      };
    },
  },
  {
    family: 'arguments',
    name: 'SQL literal spacing',
    description:
      'runQuery name = \'Anna  Berg\' (two spaces), then three, both {"rows":[]}; then one space finds her',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const runQuery = defineTool({
        name: 'runQuery',
        description: 'Runs a read-only SQL query on the CRM database.',
        input: stringInput('sql'),
        effect: 'read',
        execute: ({ sql }: { sql: string }) => ({
          rows: sql.includes("'Anna Berg'") ? [{ id: 'c-31' }] : [],
        }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('c-31') === true) return { answer: 'Anna Berg is customer c-31.' };
          const name = NAME_ATTEMPTS[toolMessages.length] as string;
          return {
            calls: [
              { name: 'runQuery', arguments: { sql: `SELECT id FROM customers WHERE name = '${name}'` } },
            ],
          };
        },
        lastWords: 'I could not find Anna Berg.',
      });
      return {
        model,
        tools: [runQuery],
        messages: [{ role: 'user', content: 'Find the customer id of Anna  Berg.' }],
      };
    },
  },
];
