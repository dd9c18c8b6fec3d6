import type { ToolSpec } from '../core/model.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { OpenAiTool } from './openai-tool.js';
import { readExportedTool } from './read-exported-tool.js';

/** Options of `toOpenAiTool`. */
export interface ToOpenAiToolOptions {
  /** Sets `function.strict` (OpenAI then requires every property in `required` and no extra ones). */
  readonly strict?: boolean;
}

/** The OpenAI function format of a tool (or of the `ToolSpec` a model receives), under its registered (provider-legal) name. */
export function toOpenAiTool(tool: AnyTool | ToolSpec, options?: ToOpenAiToolOptions): OpenAiTool {
  const exported = readExportedTool<ToOpenAiToolOptions>('openai', tool, options);
  const { strict } = exported.options;
  return {
    type: 'function',
    function: {
      name: exported.name,
      description: exported.description,
      parameters: exported.inputSchema,
      ...(typeof strict === 'boolean' ? { strict } : {}),
    },
  };
}
