import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/** The model's rewordings, in order (it starts over when it runs out). */
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

const PAGE = {
  results: [
    { flight: 'AZ 611', price: 139 },
    { flight: 'FR 9132', price: 147 },
    { flight: 'U2 4807', price: 152 },
  ],
  truncated: true,
  note: 'Showing 3 of 212 results.',
};

/**
 * 2. Same result under different arguments: the search page is always the same truncated first page, and
 * the model, hoping for the rest, rewords the query every round.
 */
export const truncatedSearchScenario: LoopScenario = {
  id: 2,
  name: 'truncated search, reworded',
  description: 'searchFlights always returns the same truncated page; the model rewords the query',
  legitimate: false,
  build() {
    const tool = defineTool({
      name: 'searchFlights',
      description: 'Searches flights. Returns one page of results.',
      input: {
        type: 'object',
        properties: { query: { type: 'string' } },
        required: ['query'],
        additionalProperties: false,
      },
      effect: 'read',
      execute: () => PAGE,
    });
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
      tools: [tool],
      messages: [{ role: 'user', content: 'Find me every cheap flight to Rome next week.' }],
      expected: 'loop-detected',
    };
  },
};
