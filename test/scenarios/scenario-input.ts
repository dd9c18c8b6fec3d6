import type { JsonSchema } from '../../src/core/json-schema.js';

/** A closed object schema whose listed keys are required strings: the input of most scenario tools. */
export function stringInput(...keys: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(keys.map((key) => [key, { type: 'string' }])),
    required: [...keys],
    additionalProperties: false,
  };
}
