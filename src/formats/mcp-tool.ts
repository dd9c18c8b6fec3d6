import type { JsonSchema } from '../core/json-schema.js';

/** Hints about a tool's behaviour (MCP 2025-06-18 and later). Clients must not rely on them for security. */
export interface McpToolAnnotations {
  /** A name for people. */
  readonly title?: string;
  /** The tool does not modify its environment. */
  readonly readOnlyHint?: boolean;
  /** When not read-only: the tool may destroy data (MCP's default is true). */
  readonly destructiveHint?: boolean;
  /** When not read-only: calling again with the same arguments has no further effect. */
  readonly idempotentHint?: boolean;
  /** The tool reaches outside a closed world (the web, other systems). */
  readonly openWorldHint?: boolean;
}

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpTool {
  /** The tool's name. */
  readonly name: string;
  /** A name for people. */
  readonly title?: string;
  /** What the tool does, for the model. */
  readonly description?: string;
  /** A JSON Schema object (`type: "object"`). */
  readonly inputSchema: JsonSchema;
  /** The schema of the tool's `structuredContent`. */
  readonly outputSchema?: JsonSchema;
  /** Hints about its behaviour. */
  readonly annotations?: McpToolAnnotations;
}
