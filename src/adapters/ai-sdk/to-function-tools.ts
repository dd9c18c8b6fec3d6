import type { JSONSchema7, LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import type { ToolSpec } from '../../core/model.js';

/** A tool without an input schema takes an object of anything (the chain still validates what it gets). */
const ANY_OBJECT: JSONSchema7 = Object.freeze({ type: 'object', properties: {} }) as JSONSchema7;

/**
 * The tools the model is told about, as AI SDK function tools; undefined when there are none (the last
 * answer after a stop), so the request carries no `tools` at all. Pure.
 */
export function toFunctionTools(specs: readonly ToolSpec[]): LanguageModelV3FunctionTool[] | undefined {
  if (specs.length === 0) return undefined;
  return specs.map((spec) => ({
    type: 'function',
    name: spec.name,
    description: spec.description,
    inputSchema: (spec.inputSchema ?? ANY_OBJECT) as JSONSchema7,
  }));
}
