import type { JsonSchema } from '../core/json-schema.js';
import type { ToolEffect } from '../tools/define-tool.js';
import type { ToolFormat } from './tool-format-error.js';

/** A tool definition read from a provider's format, before it becomes a toolwarden tool. */
export interface ImportedToolSpec {
  readonly format: ToolFormat;
  /** The name in the source, which providers may reject (`math.sqrt`). */
  readonly originalName: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  /** What the source says about side effects, or undefined when it says nothing. */
  readonly effect: ToolEffect | undefined;
}
