import type { ResolvedGuard } from '../../run/stop-conditions.js';
import type { ToolEffect } from '../../tools/tool-effect.js';

/** What the gateway decides with, resolved: every default filled in (`resolveGatewayPolicy`). */
export interface GatewayPolicy {
  /** Per turn (from the last user message), as Spring AI 2.0.1 counts: calls per tool, all calls, model calls. */
  readonly limits: {
    readonly perTool: number;
    readonly total: number;
    /** Model calls in one turn, at most: the answer of the last one is final. */
    readonly roundTrips: number;
    /** Per tool name, over `perTool`. */
    readonly tools: Readonly<Record<string, number>>;
  };
  /** The loop guard over the turn's rounds, or false. */
  readonly guard: ResolvedGuard | false;
  /** What each tool does to the world, by name; an undescribed tool is `DEFAULT_GATEWAY_TOOL_EFFECT`. */
  readonly effectOf: (tool: string) => ToolEffect;
  readonly redact: { readonly toolResults: boolean; readonly arguments: boolean };
  /** What a stopped turn ends with: the model's own answer with tools off, or the gateway's message at once. */
  readonly onStop: 'final-answer' | 'synthesize';
}
