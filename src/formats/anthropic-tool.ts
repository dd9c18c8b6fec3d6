import type { JsonSchema } from '../core/json-schema.js';

/** A client tool in the Anthropic Messages API format. */
export interface AnthropicTool {
  /** The tool's name. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description?: string;
  /** A JSON Schema object (`type: "object"`). */
  readonly input_schema: JsonSchema;
}
