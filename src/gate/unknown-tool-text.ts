import { type ModelTextPart, toolNamePart } from './model-text.js';

/**
 * What the model is told of a call to a tool that is not registered, under either `unknownTool` policy: the
 * name it sent (foreign text unless it is a legal tool name) and the tools it may call.
 */
export function unknownToolText(name: string, available: readonly string[]): ModelTextPart[] {
  return ["No tool named '", toolNamePart(name), `'. Available tools: ${available.join(', ') || '(none)'}.`];
}
