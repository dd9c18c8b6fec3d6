import { defineTool } from '../../tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { LoopScenario } from './loop-scenario.js';

/** 7. The model answers at once: one round, no tool call. */
export const noToolScenario: LoopScenario = {
  id: 7,
  name: 'no tool needed',
  description: 'the model answers from what it knows, without calling a tool',
  legitimate: true,
  build() {
    const tool = defineTool({
      name: 'getWeather',
      description: 'Current weather for a city.',
      effect: 'read',
      execute: () => ({ tempC: 21 }),
    });
    const model = createAgentModel({
      decide: () => ({ answer: 'Rome is the capital of Italy.' }),
      lastWords: 'Rome is the capital of Italy.',
    });
    return {
      model,
      tools: [tool],
      messages: [{ role: 'user', content: 'What is the capital of Italy?' }],
      expected: 'completed',
    };
  },
};
