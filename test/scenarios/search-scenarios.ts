import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** The model's rewordings of the flight search, in order (it starts over when it runs out). */
export const SEARCH_REWORDINGS = [
  'cheap flights to Rome',
  'cheap Rome flights',
  'flights Rome low price',
  'budget airfare Rome',
  'Rome flights under 100 euros',
  'low cost flights FCO',
  'inexpensive flights to Rome Italy',
  'Rome flight deals',
] as const;

const FLIGHT_PAGE = {
  results: [
    { flight: 'AZ 611', price: 139 },
    { flight: 'FR 9132', price: 147 },
    { flight: 'U2 4807', price: 152 },
  ],
  truncated: true,
  note: 'Showing 3 of 212 results.',
};

const PRODUCTS = ['Trail 40L backpack', 'Summit 35L backpack', 'Ridge 45L backpack', 'Valley 30L daypack'];

/** A search tool answering `answer(query, call number)`. */
function searchTool(
  name: string,
  answer: (query: string, call: number) => unknown,
  loop?: { unordered: boolean },
) {
  let calls = 0;
  return defineTool({
    name,
    description: 'Searches by a free-text query.',
    input: stringInput('query'),
    effect: 'read',
    ...(loop === undefined ? {} : { loop }),
    execute: ({ query }: { query: string }) => answer(query, calls++),
  });
}

/** A model that sends `queries` in order (round-robin) until a result contains `found`. */
function refine(name: string, queries: readonly string[], found: string, answer: string, lastWords: string) {
  return createAgentModel({
    decide: ({ lastTool, toolMessages }) => {
      if (lastTool?.content.includes(found) === true) return { answer };
      return { calls: [{ name, arguments: { query: queries[toolMessages.length % queries.length] } }] };
    },
    lastWords,
  });
}

export const searchScenarios: readonly ScenarioSpec[] = [
  {
    family: 'search',
    name: 'truncated search, reworded',
    description: 'searchFlights always returns the same truncated page; the model rewords the query',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'same-result',
    evidentAt: 2,
    build() {
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool !== undefined && !lastTool.content.includes('"truncated":true')) {
            return { answer: 'Here are all the flights to Rome.' };
          }
          const query = SEARCH_REWORDINGS[toolMessages.length % SEARCH_REWORDINGS.length] as string;
          return { calls: [{ name: 'searchFlights', arguments: { query } }] };
        },
        lastWords: 'The cheapest flight I found to Rome is AZ 611 at 139 EUR; the list was cut short.',
      });
      return {
        model,
        tools: [searchTool('searchFlights', () => FLIGHT_PAGE)],
        messages: [{ role: 'user', content: 'Find me every cheap flight to Rome next week.' }],
      };
    },
  },
  {
    family: 'search',
    name: 'refinement that finds new results',
    description:
      'searchDocs with 4 ever narrower queries, each answering other documents, the last one the fix',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const queries = [
        'rate limit',
        'rate limit 429',
        'rate limit 429 retry-after',
        'retry-after header backoff',
      ];
      const tool = searchTool('searchDocs', (query) => ({
        hits: [1, 2, 3].map((i) => ({ doc: `${query.replaceAll(' ', '-')}-${i}`, score: 0.9 - i / 10 })),
        ...(query.startsWith('retry-after') ? { answer: 'honour Retry-After' } : {}),
      }));
      return {
        model: refine(
          'searchDocs',
          queries,
          'honour Retry-After',
          'Honour the Retry-After header.',
          'No fix.',
        ),
        tools: [tool],
        messages: [{ role: 'user', content: 'How should my client handle HTTP 429 from the API?' }],
      };
    },
  },
  {
    family: 'search',
    name: 'empty results, then a hit',
    description: 'searchKnowledgeBase answers {"hits":[]} to 4 rewordings, then the fifth finds the article',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const queries = [
        'vpn drops',
        'vpn disconnects',
        'vpn timeout',
        'wireguard keepalive',
        'vpn idle disconnect',
      ];
      const tool = searchTool('searchKnowledgeBase', (query) =>
        query === 'vpn idle disconnect'
          ? { hits: [{ article: 'KB-2231', title: 'VPN drops when idle' }] }
          : { hits: [] },
      );
      return {
        model: refine(
          'searchKnowledgeBase',
          queries,
          'KB-2231',
          'See KB-2231: set a keepalive.',
          'Nothing found.',
        ),
        tools: [tool],
        messages: [{ role: 'user', content: 'My VPN keeps dropping. Is there a known fix?' }],
      };
    },
  },
  {
    family: 'search',
    name: 'the same products, reshuffled, reworded',
    description: 'searchProducts answers the same 4 products in a new order; the tool declares unordered',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'same-result',
    evidentAt: 2,
    build() {
      const tool = searchTool(
        'searchProducts',
        (_query, call) => {
          const shift = call % PRODUCTS.length;
          const order = [...PRODUCTS.slice(shift), ...PRODUCTS.slice(0, shift)];
          return { products: order.map((title) => ({ title, priceEur: 60 + title.length })) };
        },
        { unordered: true },
      );
      const queries = [
        'waterproof backpack',
        'rain-proof backpack',
        'backpack waterproof 40L',
        'dry bag backpack',
      ];
      return {
        model: refine(
          'searchProducts',
          queries,
          'waterproof',
          'This one is waterproof.',
          'None says waterproof.',
        ),
        tools: [tool],
        messages: [{ role: 'user', content: 'Find me a waterproof hiking backpack.' }],
      };
    },
  },
];
