import type { ToolContext } from '../tools/tool-context.js';

export interface ToolCallContextOptions {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly attempt: number;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly data: unknown;
  /** The caller's signal, when it gave one. */
  readonly parent: AbortSignal | undefined;
}

/**
 * The context a tool's `execute` receives. Its `signal` is made on first read (an `AbortController` and,
 * with a caller's signal, `AbortSignal.any`), so a tool that never asks for it costs neither.
 */
export class ToolCallContext implements ToolContext {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly attempt: number;
  readonly turnId: string | undefined;
  readonly sessionId: string | undefined;
  readonly data: unknown;
  readonly #parent: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(options: ToolCallContextOptions) {
    this.toolCallId = options.toolCallId;
    this.toolName = options.toolName;
    this.attempt = options.attempt;
    this.turnId = options.turnId;
    this.sessionId = options.sessionId;
    this.data = options.data;
    this.#parent = options.parent;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
      const parent = this.#parent;
      this.#signal =
        parent === undefined ? this.#controller.signal : AbortSignal.any([this.#controller.signal, parent]);
    }
    return this.#signal;
  }

  /** Aborts the signal (now, or when it is first read). */
  abort(reason: unknown): void {
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
