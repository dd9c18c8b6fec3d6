import type { Message } from '../../../core/message.js';
import { defineTool } from '../../../tools/define-tool.js';

export const ASK: readonly Message[] = [{ role: 'user', content: 'Weather in Paris?' }];

/** A read tool for the end-to-end tests; `cities` records what it was asked. */
export function weatherTool(cities: string[] = []) {
  return defineTool({
    name: 'weather',
    description: 'The weather in a city.',
    effect: 'read',
    input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }: { city: string }) => {
      cities.push(city);
      return { city, sky: 'sunny' };
    },
  });
}
