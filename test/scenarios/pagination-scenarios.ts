import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';

/** Pages of the long pagination: it finishes under the default ceiling (50) without raising it. */
export const INVOICE_PAGES = 30;

const cursorInput = {
  type: 'object',
  properties: { cursor: { type: 'string' } },
  additionalProperties: false,
} as const;

/** Five invoices of one page: a content-bearing result (well over 100 characters). */
function invoicePage(page: number) {
  return Array.from({ length: 5 }, (_, i) => ({
    invoiceId: `inv-${(page - 1) * 5 + i + 1}`,
    customer: `Customer ${page}-${i + 1}`,
    amountEur: 100 + page * 10 + i,
    status: 'paid',
  }));
}

/** The cursor a page names, read off the text as a model reads it. */
function cursorOf(content: string | undefined, field: string): string | undefined {
  return new RegExp(`"${field}":"([^"]+)"`).exec(content ?? '')?.[1];
}

function listInvoices(answer: (cursor: string | undefined) => unknown, loop?: { ignoreFields: string[] }) {
  return defineTool({
    name: 'listInvoices',
    description: 'One page of invoices. Pass the cursor of the previous page to get the next one.',
    input: cursorInput,
    effect: 'read',
    ...(loop === undefined ? {} : { loop }),
    execute: ({ cursor }: { cursor?: string }) => answer(cursor),
  });
}

/** A model that follows the cursor named `field` until a page names none. */
function followCursor(field: string, lastWords: string) {
  return createAgentModel({
    decide: ({ lastTool }) => {
      if (lastTool === undefined) return { calls: [{ name: 'listInvoices', arguments: {} }] };
      const cursor = cursorOf(lastTool.content, field);
      if (cursor === undefined) return { answer: 'All invoices are listed above.' };
      return { calls: [{ name: 'listInvoices', arguments: { cursor } }] };
    },
    lastWords,
  });
}

const pageOf = (cursor: string | undefined) => (cursor === undefined ? 1 : Number(cursor.slice(1)));

export const paginationScenarios: readonly ScenarioSpec[] = [
  {
    family: 'pagination',
    name: `${INVOICE_PAGES}-page pagination`,
    description: `listInvoices by cursor through ${INVOICE_PAGES} pages of new invoices, under the default ceiling`,
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = listInvoices((cursor) => {
        const page = pageOf(cursor);
        return { invoices: invoicePage(page), nextCursor: page < INVOICE_PAGES ? `p${page + 1}` : null };
      });
      return {
        model: followCursor('nextCursor', 'I listed part of the invoices.'),
        tools: [tool],
        messages: [{ role: 'user', content: 'List every invoice of this year.' }],
        check: ({ roundTrips }) =>
          roundTrips === INVOICE_PAGES + 1 ? [] : [`expected ${INVOICE_PAGES + 1} rounds, got ${roundTrips}`],
      };
    },
  },
  {
    family: 'pagination',
    name: 'numbered pages until an empty one',
    description: 'searchOrders page 1, 2, ... 8; page 8 is {"orders":[]}: the model stops there',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const tool = defineTool({
        name: 'searchOrders',
        description: 'Open orders, 4 per page, by page number (1 first). An empty page is the end.',
        input: {
          type: 'object',
          properties: { page: { type: 'integer', minimum: 1 } },
          required: ['page'],
          additionalProperties: false,
        },
        effect: 'read',
        execute: ({ page }: { page: number }) => ({
          orders: page >= 8 ? [] : [1, 2, 3, 4].map((i) => ({ orderId: `o-${page}${i}`, status: 'open' })),
        }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool?.content.includes('"orders":[]') === true) return { answer: '28 open orders.' };
          return { calls: [{ name: 'searchOrders', arguments: { page: toolMessages.length + 1 } }] };
        },
        lastWords: 'I counted part of the open orders.',
      });
      return { model, tools: [tool], messages: [{ role: 'user', content: 'How many orders are open?' }] };
    },
  },
  {
    family: 'pagination',
    name: 'the same page requested again',
    description: "after page 3 the model sends its own last cursor instead of the page's nextCursor",
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 4,
    build() {
      const tool = listInvoices((cursor) => {
        const page = pageOf(cursor);
        return { invoices: invoicePage(page), nextCursor: `p${page + 1}` };
      });
      const model = createAgentModel({
        decide: ({ toolMessages }) => {
          const page = Math.min(toolMessages.length + 1, 3);
          return { calls: [{ name: 'listInvoices', arguments: page === 1 ? {} : { cursor: `p${page}` } }] };
        },
        lastWords: 'I listed the first three pages of invoices.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'List every invoice of this year.' }],
      };
    },
  },
  {
    family: 'pagination',
    name: 'a fresh cursor on the same page',
    description:
      'a broken service answers the same invoices with a new nextCursor (a default volatile field)',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'same-result',
    evidentAt: 2,
    build() {
      let served = 0;
      const tool = listInvoices(() => ({ invoices: invoicePage(1), nextCursor: `c-${++served}` }));
      return {
        model: followCursor('nextCursor', 'I listed the first page of invoices.'),
        tools: [tool],
        messages: [{ role: 'user', content: 'List every invoice of this year.' }],
      };
    },
  },
  {
    family: 'pagination',
    name: 'a fresh token the tool declares',
    description: 'the same page with a new "continuation" token, declared loop: { ignoreFields: [...] }',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'same-result',
    evidentAt: 2,
    build() {
      let served = 0;
      const tool = listInvoices(
        () => ({ invoices: invoicePage(1), continuation: `t-${(++served).toString(36)}` }),
        { ignoreFields: ['continuation'] },
      );
      const model = createAgentModel({
        decide: ({ lastTool }) => {
          const token = cursorOf(lastTool?.content, 'continuation');
          return {
            calls: [{ name: 'listInvoices', arguments: token === undefined ? {} : { cursor: token } }],
          };
        },
        lastWords: 'I listed the first page of invoices.',
      });
      return {
        model,
        tools: [tool],
        messages: [{ role: 'user', content: 'List every invoice of this year.' }],
      };
    },
  },
];
