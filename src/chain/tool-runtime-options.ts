import type { ErrorClass } from '../core/error-class.js';
import type { Store } from '../core/store.js';
import type { AnyTool, ToolDefinition } from '../tools/define-tool.js';
import type { ToolEffect } from '../tools/tool-effect.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { WrapToolExecution } from './wrap-tool-execution.js';

/**
 * What `createToolRuntime` takes: the tools, and the policy they run under (how the chain treats calls).
 * Every policy field has a default (see `defaults`).
 */
export interface ToolRuntimeOptions {
  /** The tools made by `defineTool` (names unique), or another runtime's `tools`. */
  readonly tools: ToolRegistry | Iterable<AnyTool>;
  /** `feedback` (default): the model gets an error naming the tools it may call. `throw`: `UnknownToolError`. */
  readonly unknownTool?: 'feedback' | 'throw';
  /** Per-turn call limits. A turn starts at the last user message. */
  readonly limits?: {
    /** Calls to any one tool (default 40). */
    readonly perTool?: number;
    /** Calls to all tools together (default 150). */
    readonly total?: number;
    /** Per tool name; wins over `byEffect` and `perTool`, loses to the tool's own `maxCallsPerTurn`. */
    readonly byTool?: Readonly<Record<string, number>>;
    /** Per effect (`read`, `write`, `idempotent-write`, `unknown`); wins over `perTool`. */
    readonly byEffect?: Readonly<Partial<Record<ToolEffect, number>>>;
    /** Tools neither limited nor counted toward the total. */
    readonly exclude?: readonly string[];
    /**
     * Limits over a whole session (every turn and request of one `sessionId`), counted in the store, so they
     * hold across processes; none by default. With a `turnId`, the per-turn limits are counted there too.
     */
    readonly perSession?: {
      /** Calls to any one tool in the session. */
      readonly perTool?: number;
      /** Calls to all tools together in the session. */
      readonly total?: number;
      /** Per tool name; wins over `perTool`. */
      readonly byTool?: Readonly<Record<string, number>>;
    };
  };
  /** `throw` (default): `ToolCallLimitExceededError` with the partial result. `feedback`: only the model is told. */
  readonly onLimitExceeded?: 'throw' | 'feedback';
  /** Invalid-argument results per tool and turn before the chain stops trying that tool (default 3). */
  readonly maxInvalidAttempts?: number;
  /** Calls of one response running at once (default 4). */
  readonly concurrency?: number;
  /** Write-tool calls running at once (default 1). */
  readonly writeConcurrency?: number;
  /** Default per-call timeout in milliseconds (a tool's own `timeoutMs` wins). */
  readonly timeoutMs?: number;
  readonly retry?: {
    /**
     * Retries of read and idempotent-write tools after a transient failure (default 2); a tool's own
     * `retries` wins. A tool of unknown effect is never retried.
     */
    readonly readRetries?: number;
    /** Retries of write tools (default 0). */
    readonly writeRetries?: number;
    readonly baseDelayMs?: number;
    readonly maxDelayMs?: number;
    /** Source of jitter in [0, 1) (default `Math.random`). */
    readonly random?: () => number;
  };
  readonly maxArgumentBytes?: number;
  readonly maxArgumentDepth?: number;
  readonly maxResultChars?: number;
  /** Classifies failures before the built-in policy; return undefined to defer. */
  readonly classifyError?: (error: unknown) => ErrorClass | undefined;
  /**
   * Shows the model the message of errors of unknown provenance (a plain `Error`, a driver's error): `true`
   * for every tool, a function for the errors it returns `true` for; default `false` (the model gets the code
   * and the hint of the error's class). A tool's own setting wins. A shown message is redacted and cut.
   */
  readonly showErrorMessages?: boolean | ((error: unknown) => boolean);
  /** What a result that breaks its tool's output contract does (default `feedback`); a tool's own setting wins. */
  readonly onContractViolation?: ToolDefinition<unknown, unknown>['onContractViolation'];
  /**
   * Decides, before each call runs, whether it runs, waits for a person (`ask`) or is denied, from the
   * validated call and the caller's `data` (roles, a tenant), never the model's claims. Asked after the
   * tool's own (unless it denied; deny beats ask beats run), and again on resume. A denied call is
   * `PERMISSION_DENIED` for the model, and its reason goes to the call's `tool-call-end` event
   * (`denialReason`) and audit record only.
   */
  readonly decide?: ToolDefinition<unknown, unknown>['decide'];
  /** What the model is told of a call denied before it ran (default `DEFAULT_DENIED_TEXT`: nothing about why). */
  readonly deniedText?: string;
  /** Middleware around one call's timeout, retries and delivery (a tracer runs the tool inside its span). */
  readonly wrapToolExecution?: WrapToolExecution;
  /**
   * Where state outlives a call: idempotency records of writes, session call counters, the session's guard
   * memory, paused runs. Default: a `MemoryStore` of the runtime's own (one process). For several processes
   * or restarts: `toolwarden/sqlite` (one machine), `toolwarden/redis` or `toolwarden/postgres` (shared).
   */
  readonly store?: Store;
  /** A read tool when the store counting the session's calls fails: `open` (default) runs it uncounted, with an event; `closed` refuses it. Writes always fail closed. */
  readonly onStoreFailure?: 'open' | 'closed';
}

/** The policy alone: the runtime's options but its tools. */
export type ToolExecutionPolicy = Omit<ToolRuntimeOptions, 'tools'>;
