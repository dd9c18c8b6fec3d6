import type { JsonSchema } from '../core/json-schema.js';

/** A tool in the OpenAI function format (Chat Completions `tools`). */
export interface OpenAiTool {
  /** Always `function`. */
  readonly type: 'function';
  /** The function: its name, description, parameters and strict mode. */
  readonly function: {
    readonly name: string;
    readonly description?: string;
    /** A JSON Schema object; optional in OpenAI's API (no parameters). */
    readonly parameters?: JsonSchema;
    readonly strict?: boolean;
  };
}
