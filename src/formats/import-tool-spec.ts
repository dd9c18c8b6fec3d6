import { ToolDefinitionError } from '../core/errors/tool-definition-error.js';
import type { SchemaCompiler } from '../schema/schema-compiler.js';
import {
  type AnyTool,
  defineTool,
  type Tool,
  type ToolDefinition,
  type ToolEffect,
} from '../tools/define-tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import type { ImportedToolSpec } from './imported-tool-spec.js';
import { type ToolFormat, ToolFormatError } from './tool-format-error.js';
import { createToolNameMap, type ToolNameMap } from './tool-name-map.js';

/** Settings of `defineTool` that no format carries: pass them through unchanged. */
export type ImportedToolSettings = Pick<
  ToolDefinition<unknown, unknown>,
  | 'timeoutMs'
  | 'retries'
  | 'maxCallsPerTurn'
  | 'returnDirect'
  | 'classifyError'
  | 'showErrorMessages'
  | 'maxResultChars'
  | 'onContractViolation'
  | 'formatResult'
>;

/** How `fromOpenAiTool`, `fromAnthropicTool` and `fromMcpTool` make one definition a tool. */
export interface ImportToolOptions<TResult = unknown> {
  /** Runs the tool with the validated arguments. */
  readonly execute: (args: unknown, context: ToolContext) => TResult | Promise<TResult>;
  /** Compiles the schemas (default: the compiler every tool shares, `defaultSchemaCompiler()`). */
  readonly schemaCompiler?: SchemaCompiler;
  /** Where to look up the provider-legal name (default: a map of this one name). */
  readonly nameMap?: ToolNameMap;
  /** Overrides what the source says (OpenAI and Anthropic say nothing: the default is `write`). */
  readonly effect?: ToolEffect;
  /** The tool's own settings (`timeoutMs`, `retries`, …). */
  readonly settings?: ImportedToolSettings;
}

/** Calls every imported tool of a list: receives the tool's original name, before any mapping. */
export type ImportedToolHandler = (originalName: string, args: unknown, context: ToolContext) => unknown;

/** How `fromOpenAiTools`, `fromAnthropicTools` and `fromMcpTools` make a list of definitions tools. */
export interface ImportToolsOptions {
  /** Runs every tool of the list. */
  readonly handler: ImportedToolHandler;
  /** Compiles the schemas (default: the compiler every tool shares, `defaultSchemaCompiler()`). */
  readonly schemaCompiler?: SchemaCompiler;
  /** A fixed effect, or one per original name; default: what the source says, else `write`. */
  readonly effect?: ToolEffect | ((originalName: string) => ToolEffect | undefined);
  /** Settings shared by every tool of the list (`timeoutMs`, `retries`, …). */
  readonly settings?: ImportedToolSettings;
}

/** The tools made from a list of definitions, and the map between their original and registered names. */
export interface ImportedTools {
  /** One tool per definition, in order, registered under its provider-legal name. */
  readonly tools: readonly AnyTool[];
  /** Original names to registered names and back: a call to `toProvider(x)` reaches the tool for `x`. */
  readonly nameMap: ToolNameMap;
}

/** Tools a source says nothing about are of `unknown` effect: the cautious defaults (see docs/effects.md). */
const UNKNOWN_EFFECT: ToolEffect = 'unknown';

/** Turns one tool spec into a tool, registered under its provider-legal name. */
export function importToolSpec<TResult>(
  spec: ImportedToolSpec,
  options: ImportToolOptions<TResult>,
): Tool<unknown, TResult> {
  checkImportOptions(spec.format, options, 'execute', spec.originalName);
  const { nameMap = createToolNameMap([spec.originalName]) } = options;
  if (typeof nameMap?.toProvider !== 'function') {
    throw formatError(spec, 'options.nameMap', 'nameMap must be a map made by createToolNameMap.');
  }
  const name = nameMap.toProvider(spec.originalName);
  if (name === undefined) {
    throw formatError(spec, 'name', `the name map given in options.nameMap does not hold this tool's name.`);
  }
  try {
    return defineTool<unknown, TResult>({
      ...options.settings,
      name,
      description: spec.description,
      input: spec.inputSchema,
      ...(spec.outputSchema === undefined ? {} : { output: spec.outputSchema }),
      effect: options.effect ?? spec.effect ?? UNKNOWN_EFFECT,
      execute: options.execute,
      ...(options.schemaCompiler === undefined ? {} : { schemaCompiler: options.schemaCompiler }),
    });
  } catch (error) {
    if (!(error instanceof ToolDefinitionError)) throw error;
    throw formatError(spec, '', error.message.replace(/^Tool "[^"]*": /, ''), error);
  }
}

/**
 * Turns a list of tool specs into tools sharing one name map and one schema compiler; every tool calls
 * `handler` with its original name. Two definitions with the same original name are refused.
 */
export function importToolSpecs(
  specs: readonly ImportedToolSpec[],
  options: ImportToolsOptions,
): ImportedTools {
  checkImportOptions(specs[0]?.format ?? 'openai', options, 'handler');
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.originalName)) {
      throw formatError(spec, 'name', 'two tools have this name: tool names must be unique within a list.');
    }
    seen.add(spec.originalName);
  }
  const nameMap = createToolNameMap(seen);
  const { handler, effect, settings, schemaCompiler } = options;
  const tools = specs.map((spec, index) => {
    const chosen = typeof effect === 'function' ? effect(spec.originalName) : effect;
    try {
      return importToolSpec(spec, {
        execute: (args, context) => handler(spec.originalName, args, context),
        nameMap,
        ...(schemaCompiler === undefined ? {} : { schemaCompiler }),
        ...(chosen === undefined ? {} : { effect: chosen }),
        ...(settings === undefined ? {} : { settings }),
      });
    } catch (error) {
      if (!(error instanceof ToolFormatError)) throw error;
      const path = error.path === '' ? `[${index}]` : `[${index}].${error.path}`;
      throw formatError(spec, path, error.problem, error.cause);
    }
  });
  return Object.freeze({ tools: Object.freeze(tools), nameMap });
}

/** Checks the options of an import now, so a missing `execute` or `handler` fails before any reading. */
export function checkImportOptions(
  format: ToolFormat,
  options: unknown,
  fn: 'execute' | 'handler',
  toolName?: string,
): void {
  const what =
    fn === 'execute' ? 'an execute function that runs the tool' : 'a handler function that runs the tools';
  if (
    typeof options !== 'object' ||
    options === null ||
    typeof (options as Record<string, unknown>)[fn] !== 'function'
  ) {
    throw new ToolFormatError({
      format,
      toolName,
      path: `options.${fn}`,
      problem: `importing needs an options object with ${what}.`,
    });
  }
}

function formatError(
  spec: ImportedToolSpec,
  path: string,
  problem: string,
  cause?: unknown,
): ToolFormatError {
  return new ToolFormatError({ format: spec.format, toolName: spec.originalName, path, problem, cause });
}
