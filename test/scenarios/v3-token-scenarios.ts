import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { opaqueToken } from './opaque-token.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'fresh-token';
const family = guardClassFamily(guardClass);

/** Five card transactions of page `page`. */
function transactions(page: number) {
  return Array.from({ length: 5 }, (_, i) => ({
    txId: `tx-${page}${i}`,
    merchant: ['Albert Heijn', 'NS Reizen', 'Bol.com', 'Shell', 'Coolblue'][i],
    amountEur: 12 + page * 3 + i,
  }));
}

/**
 * listTransactions: the page a `continueFrom` token names (a name outside the built-in volatile list);
 * `pageOf` maps the n-th call to the page it serves, `more` whether that page names a next token.
 */
function transactionsTool(pageOf: (call: number) => number, more: (call: number) => boolean) {
  let calls = 0;
  return defineTool({
    name: 'listTransactions',
    description: 'Card transactions, 5 per page. Pass the continueFrom of the previous page for the next.',
    input: { type: 'object', properties: { continueFrom: { type: 'string' } }, additionalProperties: false },
    effect: 'read',
    execute: () => {
      calls++;
      const next = more(calls) ? { continueFrom: opaqueToken('ct_', calls) } : {};
      return { transactions: transactions(pageOf(calls)), ...next };
    },
  });
}

/** Follows continueFrom until a page names none. */
function followContinue() {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool === undefined) return { calls: [{ name: 'listTransactions', arguments: {} }] };
      const token = /"continueFrom":"([^"]+)"/.exec(lastTool.content)?.[1];
      if (token === undefined) return { answer: 'Those are all the card transactions of March.' };
      return { calls: [{ name: 'listTransactions', arguments: { continueFrom: token } }] };
    },
    lastWords: 'I listed part of the card transactions.',
  });
}

const transactionsRequest = [{ role: 'user', content: 'List my card transactions of March.' }] as const;

/** The quarterly report: long, and in draft however often it is fetched. */
const DRAFT_REPORT = {
  reportId: 'r-2025-q1',
  status: 'draft',
  sections: ['revenue', 'costs', 'headcount'],
  summary: 'Revenue 4.1 M EUR (+6%), costs 3.2 M EUR, headcount 48; figures are provisional until the close.',
};

export const v3TokenScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'continueFrom tokens, new items each page',
    description: 'listTransactions follows continueFrom (not a built-in name) through 6 pages of new items',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: followContinue(),
      tools: [
        transactionsTool(
          (call) => call,
          (call) => call < 6,
        ),
      ],
      messages: transactionsRequest,
      check: expectRounds(7),
    }),
  },
  {
    family,
    guardClass,
    name: 'a fresh upload token per distinct file',
    description: 'getUploadToken (a write) then uploadFile for 3 files: a new token and a new file id each',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let issued = 0;
      const getUploadToken = defineTool({
        name: 'getUploadToken',
        description: 'Issues a one-time upload token for the document store.',
        effect: 'write',
        idempotency: false,
        execute: () => ({ uploadToken: opaqueToken('up_', ++issued) }),
      });
      const uploadFile = defineTool({
        name: 'uploadFile',
        description: 'Uploads a file of the workspace with a one-time upload token.',
        input: stringInput('uploadToken', 'path'),
        effect: 'write',
        execute: ({ path }: { path: string }) => ({ fileId: `f-${path.replace(/\W/g, '')}` }),
      });
      const files = ['contracts/lease.pdf', 'contracts/insurance.pdf', 'contracts/permit.pdf'];
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          const token = /"uploadToken":"([^"]+)"/.exec(lastTool?.content ?? '')?.[1];
          const path = files[Math.floor(toolMessages.length / 2)];
          if (path === undefined) return { answer: 'The three contracts are uploaded.' };
          if (token === undefined) return { calls: [{ name: 'getUploadToken' }] };
          return { calls: [{ name: 'uploadFile', arguments: { uploadToken: token, path } }] };
        },
        lastWords: 'I uploaded part of the contracts.',
      });
      return {
        model,
        tools: [getUploadToken, uploadFile],
        messages: [{ role: 'user', content: 'Upload the three contracts to the document store.' }],
        check: expectRounds(7),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a lease token per job, each job new',
    description:
      'pullJob passes the lease of the last answer; each answer is a new job, until the queue is empty',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let pulled = 0;
      const pullJob = defineTool({
        name: 'pullJob',
        description: 'Takes the next job of the render queue; pass the lease of the last job to release it.',
        input: { type: 'object', properties: { lease: { type: 'string' } }, additionalProperties: false },
        effect: 'write',
        execute: () => {
          pulled++;
          if (pulled > 5) return { job: null };
          return {
            job: { jobId: `job-${700 + pulled}`, scene: `scene-${pulled}` },
            lease: opaqueToken('ls_', pulled),
          };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool }) => {
          if (lastTool?.content.includes('"job":null') === true)
            return { answer: 'The render queue is drained.' };
          const lease = /"lease":"([^"]+)"/.exec(lastTool?.content ?? '')?.[1];
          return { calls: [{ name: 'pullJob', arguments: lease === undefined ? {} : { lease } }] };
        },
        lastWords: 'I took part of the render queue.',
      });
      return {
        model,
        tools: [pullJob],
        messages: [{ role: 'user', content: 'Drain the render queue.' }],
        check: expectRounds(7),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'continueFrom tokens, the same page each time',
    description: 'listTransactions answers page 1 with a fresh continueFrom token, forever',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: followContinue(),
      tools: [
        transactionsTool(
          () => 1,
          () => true,
        ),
      ],
      messages: transactionsRequest,
    }),
  },
  {
    family,
    guardClass,
    name: 'a fresh session before each fetch',
    description: 'openSession (a write, a new token), fetchReport with it: the same draft report, on and on',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Round 4 fetches the report of round 2 again under a new session: the same draft.
    evidentAt: 4,
    build() {
      let opened = 0;
      const openSession = defineTool({
        name: 'openSession',
        description: 'Opens a session of the reporting service and returns its token.',
        effect: 'write',
        idempotency: false,
        execute: () => ({ sessionToken: opaqueToken('ses_', ++opened) }),
      });
      const fetchReport = defineTool({
        name: 'fetchReport',
        description: 'A report of the reporting service, by id, within a session.',
        input: stringInput('sessionToken', 'reportId'),
        effect: 'read',
        execute: () => DRAFT_REPORT,
      });
      const model = createAgentModel({
        decide: ({ lastTool }) => {
          const token = /"sessionToken":"([^"]+)"/.exec(lastTool?.content ?? '')?.[1];
          if (token === undefined) return { calls: [{ name: 'openSession' }] };
          return {
            calls: [{ name: 'fetchReport', arguments: { sessionToken: token, reportId: 'r-2025-q1' } }],
          };
        },
        lastWords: 'The Q1 report is still a draft.',
      });
      return {
        model,
        tools: [openSession, fetchReport],
        messages: [{ role: 'user', content: 'Get me the final Q1 report.' }],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a fresh clientRef per search, echoed back',
    description:
      'searchFlights with a new clientRef each call; the answer echoes it, the flights never change',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      const searchFlights = defineTool({
        name: 'searchFlights',
        description: 'Flights between two airports on a date; clientRef is echoed back for tracing.',
        input: stringInput('from', 'to', 'date', 'clientRef'),
        effect: 'read',
        execute: ({ clientRef }: { clientRef: string }) => ({
          clientRef,
          flights: [
            { flight: 'KL1001', departs: '07:10', seats: 0 },
            { flight: 'BA0431', departs: '09:35', seats: 0 },
            { flight: 'KL1007', departs: '13:20', seats: 0 },
          ],
        }),
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => ({
          calls: [
            {
              name: 'searchFlights',
              arguments: {
                from: 'AMS',
                to: 'LHR',
                date: '2025-05-02',
                clientRef: opaqueToken('ref-', toolMessages.length + 1),
              },
            },
          ],
        }),
        lastWords: 'Every flight on May 2 is full.',
      });
      return {
        model,
        tools: [searchFlights],
        messages: [{ role: 'user', content: 'Find me a seat from Amsterdam to London on May 2.' }],
      };
    },
  },
];
