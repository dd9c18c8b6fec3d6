import { type AnyTool, defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

const SOURCES = ['searchWiki', 'searchNews', 'searchForums', 'searchDocs', 'searchArchive'] as const;

function sourceTool(name: string): AnyTool {
  return defineTool({
    name,
    description: `Searches ${name.slice('search'.length).toLowerCase()}.`,
    input: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    effect: 'read',
    execute: ({ query }: { query: string }) => ({ query, hits: [], source: name }),
  });
}

/**
 * 8. A runaway: the model keeps calling tools, a different source or query every round, and every result
 * is new (and useless). Nothing repeats, so no loop is reported: the ceiling stops it.
 */
export const uselessToolsScenario: LoopScenario = {
  id: 8,
  name: 'distinct useless calls',
  description: 'a new source or query every round, every result new and empty: only the ceiling stops it',
  legitimate: false,
  build() {
    const model = createAgentModel({
      decide: ({ round }) => ({
        calls: [
          {
            name: SOURCES[(round - 1) % SOURCES.length] as string,
            arguments: { query: `origin of the name Toolwarden, attempt ${round}` },
          },
        ],
      }),
      lastWords: 'I found nothing about the origin of the name.',
    });
    return {
      model,
      tools: SOURCES.map(sourceTool),
      messages: [{ role: 'user', content: 'Where does the name Toolwarden come from?' }],
      expected: 'max-round-trips',
    };
  },
};
