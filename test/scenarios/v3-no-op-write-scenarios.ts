import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'no-op-writes';
const family = guardClassFamily(guardClass);

/** `n` distinct rewordings of one sentence: each a new text, none a new meaning. */
function rewordings(n: number): string[] {
  const openers = ['Customer', 'The customer', 'Client', 'Caller', 'Account holder'];
  const verbs = ['is waiting for', 'still awaits', 'has not yet received', 'is chasing', 'asks about'];
  const objects = ['the refund', 'the refund of order 5521', 'their money back', 'the refund we promised'];
  const all = openers.flatMap((o) => verbs.flatMap((v) => objects.map((x) => `${o} ${v} ${x}.`)));
  return all.slice(0, n);
}

/** Alternates `read` (the same call) and the next write of `writes` (a call per round), forever. */
function readWriteModel(
  read: { name: string; arguments: unknown },
  writes: (n: number) => unknown,
  tool: string,
) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool === undefined || lastTool.name === tool) return { calls: [read] };
      return { calls: [{ name: tool, arguments: writes(Math.floor(toolMessages.length / 2)) }] };
    },
    lastWords: 'The change does not show.',
  });
}

const FAILURE = { passed: 63, failed: ['csv.test.ts > quotes a field with a comma'] };

export const v3NoOpWriteScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'the live page changes on the third write',
    description: 'getLivePage is the same after setTitle and setSlug; it changes after publish',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const draft = { title: '', slug: '', published: false };
      const getLivePage = defineTool({
        name: 'getLivePage',
        description: 'What visitors see at a path of the site.',
        input: stringInput('path'),
        effect: 'read',
        execute: ({ path }: { path: string }) =>
          draft.published
            ? { path, status: 200, title: draft.title }
            : { path, status: 404, message: 'Nothing is published at this path yet.' },
      });
      const updateDraft = defineTool({
        name: 'updateDraft',
        description: 'Sets a field of the draft page (title, slug), or publishes it (field "publish").',
        input: stringInput('field', 'value'),
        effect: 'write',
        execute: ({ field, value }: { field: string; value: string }) => {
          if (field === 'publish') draft.published = true;
          else if (field === 'title' || field === 'slug') draft[field] = value;
          return { ok: true };
        },
      });
      const steps = [
        { field: 'title', value: 'Spring sale' },
        { field: 'slug', value: 'spring-sale' },
        { field: 'publish', value: 'now' },
      ];
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"status":200') === true)
            return { answer: 'The spring sale page is live.' };
          if (lastTool === undefined || lastTool.name === 'updateDraft')
            return { calls: [{ name: 'getLivePage', arguments: { path: '/spring-sale' } }] };
          const step = steps[Math.floor(toolMessages.length / 2)];
          return step === undefined
            ? { answer: 'The page did not go live.' }
            : { calls: [{ name: 'updateDraft', arguments: step }] };
        },
        lastWords: 'The spring sale page is not live yet.',
      });
      return {
        model,
        tools: [getLivePage, updateDraft],
        messages: [{ role: 'user', content: 'Put the spring sale page live at /spring-sale.' }],
        check: expectRounds(8),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'reworded summaries, each one shown',
    description: 'updateSummary with 3 rewordings (shorter each time); getDocument shows each one',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const versions = [
        'This quarter revenue grew by twelve percent, driven by the new subscription plans in Benelux.',
        'Revenue grew 12% this quarter, driven by new subscriptions in Benelux.',
        'Revenue +12%, from Benelux subscriptions.',
      ];
      let summary = 'Quarterly report, draft.';
      const getDocument = defineTool({
        name: 'getDocument',
        description: 'A document: its title and summary.',
        input: stringInput('documentId'),
        effect: 'read',
        execute: ({ documentId }: { documentId: string }) => ({ documentId, title: 'Q2 report', summary }),
      });
      const updateSummary = defineTool({
        name: 'updateSummary',
        description: "Replaces a document's summary.",
        input: stringInput('documentId', 'summary'),
        effect: 'write',
        execute: ({ summary: text }: { summary: string }) => {
          summary = text;
          return { ok: true };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool === undefined || lastTool.name === 'updateSummary')
            return { calls: [{ name: 'getDocument', arguments: { documentId: 'doc-q2' } }] };
          const next = versions[Math.floor(toolMessages.length / 2)];
          if (next === undefined) return { answer: 'The summary is down to one line.' };
          return { calls: [{ name: 'updateSummary', arguments: { documentId: 'doc-q2', summary: next } }] };
        },
        lastWords: 'The summary is shorter, not yet one line.',
      });
      return {
        model,
        tools: [getDocument, updateSummary],
        messages: [
          { role: 'user', content: 'Shorten the summary of the Q2 report, step by step, to one line.' },
        ],
        check: expectRounds(8),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'an import re-run after each fix, clean third',
    description: 'runImport reports "row 14: bad date" twice, after two distinct fixes, then imports clean',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const fixes: string[] = [];
      const runImport = defineTool({
        name: 'runImport',
        description: 'Imports a CSV file of the upload folder into the ledger (a re-run replaces the last).',
        input: stringInput('file'),
        effect: 'idempotent-write',
        execute: () =>
          fixes.length >= 2
            ? { imported: 240, errors: [] }
            : { imported: 0, errors: ['row 14: bad date "31/02/2025"'] },
      });
      const fixRow = defineTool({
        name: 'fixRow',
        description: 'Replaces one cell of a CSV file of the upload folder.',
        input: stringInput('file', 'cell', 'value'),
        effect: 'write',
        execute: ({ cell }: { cell: string }) => {
          fixes.push(cell);
          return { ok: true };
        },
      });
      const cells = [
        { cell: 'B14', value: '2025-02-28' },
        { cell: 'C14', value: '2025-03-01' },
      ];
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"errors":[]') === true)
            return { answer: 'All 240 rows of ledger-q1.csv are imported.' };
          if (lastTool === undefined || lastTool.name === 'fixRow')
            return { calls: [{ name: 'runImport', arguments: { file: 'ledger-q1.csv' } }] };
          const fix = cells[Math.floor(toolMessages.length / 2)];
          if (fix === undefined) return { answer: 'Row 14 still fails.' };
          return { calls: [{ name: 'fixRow', arguments: { file: 'ledger-q1.csv', ...fix } }] };
        },
        lastWords: 'The import still fails on row 14.',
      });
      return {
        model,
        tools: [runImport, fixRow],
        messages: [{ role: 'user', content: 'Import ledger-q1.csv; fix what stops it.' }],
        check: expectRounds(6),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'reworded notes, the case never changes',
    description: 'getCase, addNote, getCase (the same), addNote reworded, getCase (the same), ...',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 adds the note of round 2 reworded: nothing new; getCase at 5 repeats round 3.
    evidentAt: 4,
    build() {
      const notes = rewordings(60);
      const getCase = defineTool({
        name: 'getCase',
        description: 'A support case: status, customer, open actions (notes are kept apart).',
        input: stringInput('caseId'),
        effect: 'read',
        execute: ({ caseId }: { caseId: string }) => ({
          caseId,
          status: 'waiting on finance',
          customer: 'Ilse de Vries',
          openActions: ['refund 89.00 EUR to the original card'],
        }),
      });
      const addNote = defineTool({
        name: 'addNote',
        description: 'Adds an internal note to a support case.',
        input: stringInput('caseId', 'text'),
        effect: 'write',
        execute: () => ({ ok: true }),
      });
      return {
        model: readWriteModel(
          { name: 'getCase', arguments: { caseId: 'C-7' } },
          (n) => ({ caseId: 'C-7', text: notes[n % notes.length] }),
          'addNote',
        ),
        tools: [getCase, addNote],
        messages: [
          { role: 'user', content: 'Make case C-7 show that the customer is waiting for the refund.' },
        ],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'one fix, reworded, the same test failure',
    description:
      'runTests fails; editFile with one change in ever new words; runTests fails alike, on and on',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 sends the change of round 2 in other words; the tests of round 5 repeat round 3's.
    evidentAt: 4,
    build() {
      const patches = ['quote', 'wrap in double quotes', 'enclose in quotes', 'escape with quotes'].flatMap(
        (verb) =>
          ['fields containing a comma', 'any field with a comma', 'a value holding a comma'].flatMap((what) =>
            ['in writeRow', 'when a row is serialized', 'before the row is joined'].map(
              (where) => `${verb} ${what} ${where}`,
            ),
          ),
      );
      const runTests = defineTool({
        name: 'runTests',
        description: "Runs the project's test suite.",
        effect: 'read',
        execute: () => FAILURE,
      });
      const editFile = defineTool({
        name: 'editFile',
        description: 'Applies a patch to a file.',
        input: stringInput('path', 'patch'),
        effect: 'write',
        execute: () => ({ ok: true }),
      });
      return {
        model: readWriteModel(
          { name: 'runTests', arguments: {} },
          (n) => ({ path: 'src/csv.ts', patch: patches[n % patches.length] }),
          'editFile',
        ),
        tools: [runTests, editFile],
        messages: [{ role: 'user', content: 'The CSV test fails on a field with a comma: fix it.' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'purging a cache that is not the problem',
    description: 'fetchPage shows the old price; purgeCache with a reworded reason; the same page, on and on',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 purges again for the reason of round 2 in other words; round 5 fetches the page of round 3.
    evidentAt: 4,
    build() {
      const reasons = rewordings(60).map((text) => `price update: ${text}`);
      const fetchPage = defineTool({
        name: 'fetchPage',
        description: 'Fetches a page of the shop through the CDN.',
        input: stringInput('url'),
        effect: 'read',
        execute: ({ url }: { url: string }) => ({
          url,
          status: 200,
          title: 'Trail runner GTX',
          price: '129.00 EUR',
          cache: 'HIT',
        }),
      });
      const purgeCache = defineTool({
        name: 'purgeCache',
        description: 'Purges a URL from the CDN cache.',
        input: stringInput('url', 'reason'),
        effect: 'write',
        execute: () => ({ purged: true }),
      });
      const url = 'https://shop.example/p/trail-runner-gtx';
      return {
        model: readWriteModel(
          { name: 'fetchPage', arguments: { url } },
          (n) => ({ url, reason: reasons[n % reasons.length] }),
          'purgeCache',
        ),
        tools: [fetchPage, purgeCache],
        messages: [{ role: 'user', content: 'The trail runner should show 109 EUR: make the shop show it.' }],
      };
    },
  },
];
