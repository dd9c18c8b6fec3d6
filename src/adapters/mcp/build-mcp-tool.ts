import { DEFAULT_MCP_MAX_DESCRIPTION_CHARS } from '../../core/defaults.js';
import { ToolInputError } from '../../core/errors/tool-input-error.js';
import { readMcpTool } from '../../formats/from-mcp-tool.js';
import type { ToolNameMap } from '../../formats/tool-name-map.js';
import type { ShowErrorMessages } from '../../gate/show-error-messages.js';
import type { SchemaCompiler } from '../../schema/schema-compiler.js';
import { defineTool, type Tool } from '../../tools/define-tool.js';
import { classifyMcpFailure, mcpFailureKind } from './classify-mcp-failure.js';
import { describePart, formatMcpResult } from './format-mcp-result.js';
import { McpCallError } from './mcp-call-error.js';
import type { McpClientPort } from './mcp-client-port.js';
import { describeMcpTool, type McpToolInfo, readHints } from './mcp-tool-info.js';
import type { McpToolSettings } from './mcp-tool-settings.js';
import { type McpToolResult, readCallResult } from './read-call-result.js';
import { structuredContentContract } from './structured-content-contract.js';

/** What building one server tool needs: the port, the names, the trust rule and the caller's settings. */
export interface BuildContext {
  readonly port: McpClientPort;
  readonly nameMap: ToolNameMap;
  readonly trusted: boolean;
  readonly compiler: SchemaCompiler;
  readonly requestTimeoutMs: number | undefined;
  readonly showErrorMessages: ShowErrorMessages | undefined;
  readonly formatResult: ((result: McpToolResult) => string) | undefined;
  readonly settings: ((info: McpToolInfo) => McpToolSettings | undefined) | undefined;
  /** A successful value keeps the server's `isError` as sent: left out when the server left it out. */
  readonly asSent: boolean;
}

/** A guarded tool and what it was made from. */
export interface BuiltMcpTool {
  readonly tool: Tool<unknown, McpToolResult>;
  readonly info: McpToolInfo;
}

/**
 * One server tool as a toolwarden tool: its input schema validated by the chain before the server is
 * called, its output schema the contract of successful results, its annotations read by the trust rule.
 * Throws `ToolFormatError` or `ToolDefinitionError` for a definition that cannot be a tool.
 */
export function buildMcpTool(definition: unknown, context: BuildContext): BuiltMcpTool {
  const spec = readMcpTool(definition);
  const raw = definition as { title?: unknown; annotations?: unknown };
  const name = context.nameMap.toProvider(spec.originalName) ?? spec.originalName;
  const info = describeMcpTool(
    {
      originalName: spec.originalName,
      name,
      title: typeof raw.title === 'string' ? raw.title.slice(0, 200) : undefined,
    },
    readHints(raw.annotations),
    context.trusted,
    spec.outputSchema !== undefined,
  );
  const own = context.settings?.(info) ?? {};
  const tool = defineTool<unknown, McpToolResult>({
    ...(context.showErrorMessages === undefined ? {} : { showErrorMessages: context.showErrorMessages }),
    formatResult: context.formatResult ?? formatMcpResult,
    ...own,
    name,
    description: cut(spec.description, DEFAULT_MCP_MAX_DESCRIPTION_CHARS),
    input: spec.inputSchema,
    ...(own.output !== undefined
      ? { output: own.output }
      : spec.outputSchema === undefined
        ? {}
        : { output: structuredContentContract(spec.outputSchema, context.compiler) }),
    effect: own.effect ?? info.effect,
    schemaCompiler: context.compiler,
    classifyError: classifyMcpFailure,
    execute: (args, { signal }) => callMcpTool(context, spec.originalName, args, signal),
  });
  return { tool, info: own.effect === undefined ? info : Object.freeze({ ...info, effect: own.effect }) };
}

/**
 * One `tools/call`. An `isError` result becomes a `ToolInputError` whose message is its text (the model
 * reads it, redacted and cut: the spec's tool execution errors are meant for the model); a thrown SDK
 * error an `McpCallError` of its kind; an abort or the chain's timeout stays what it is.
 */
async function callMcpTool(
  context: BuildContext,
  toolName: string,
  args: unknown,
  signal: AbortSignal,
): Promise<McpToolResult> {
  let raw: unknown;
  try {
    raw = await context.port.callTool(toolName, args, { signal, timeout: context.requestTimeoutMs });
  } catch (error) {
    if (signal.aborted) throw error;
    const { kind, rpcCode } = mcpFailureKind(error);
    throw new McpCallError({ kind, rpcCode, toolName, message: messageOf(error), cause: error });
  }
  const result = readCallResult(toolName, raw);
  if (!result.isError) return context.asSent && !sentIsError(raw) ? withoutIsError(result) : result;
  const text = result.content
    .filter((part) => part.type === 'text')
    .map(describePart)
    .join('\n');
  throw new ToolInputError({
    message: text.trim() === '' ? `Tool '${toolName.slice(0, 64)}' reported an error without a text.` : text,
    cause: new McpCallError({ kind: 'tool', toolName, message: 'the tool answered isError: true', result }),
  });
}

/** Whether the server's answer (a checked object) carries `isError` itself. */
function sentIsError(raw: unknown): boolean {
  return Object.hasOwn(raw as object, 'isError');
}

/** The read result without the `isError: false` the reader adds: as the proxy's client is to get it. */
function withoutIsError(result: McpToolResult): McpToolResult {
  const { isError: _, ...rest } = result;
  return Object.freeze(rest) as McpToolResult;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function messageOf(error: unknown): string {
  try {
    const message = (error as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : String(error);
  } catch {
    return 'the MCP request failed';
  }
}
