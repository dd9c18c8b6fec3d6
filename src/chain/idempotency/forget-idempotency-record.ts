import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { canonicalArguments } from '../../serialize/canonical-json.js';
import { parseArguments } from '../parse-arguments.js';
import { resolvedRuntime, type ToolRuntime } from '../runtime.js';
import { idempotencyKeyOf } from './idempotency-key.js';
import { createIdempotencyScope } from './idempotency-scope.js';

/**
 * Deletes the idempotency record of a write, so that its next identical call runs. This is how an unknown
 * outcome (`OUTCOME_UNKNOWN`: an at-most-once call cut off, or whose process died, before its outcome was
 * recorded) is resolved, once someone has checked whether the write took effect: if it did not, forget the
 * record and let the call run; if it did, tell the user and leave the record to expire. True when a record
 * was deleted. Rejects with `InvalidOptionsError` for a tool that keeps no records or arguments its key
 * cannot be made of, and with `StoreError` when the store fails.
 */
export async function forgetIdempotencyRecord(
  runtime: ToolRuntime,
  options: {
    /** A write tool of the runtime. */
    readonly toolName: string;
    /** The call's arguments: the text the model sent, or the arguments as an object. */
    readonly arguments: unknown;
    /** The session (else the turn) the call ran in: the scope of its record. */
    readonly sessionId?: string;
    /** The turn the call ran in, when it ran in no session. */
    readonly turnId?: string;
    /** The caller data the call ran with (a tool's own key function may read it). */
    readonly data?: unknown;
  },
): Promise<boolean> {
  const tool = runtime.tools.get(options.toolName);
  const settings = tool?.idempotency;
  if (tool === undefined || settings === undefined) {
    throw new InvalidOptionsError({
      option: 'toolName',
      message: `no tool of this runtime named ${JSON.stringify(String(options.toolName).slice(0, 64))} keeps idempotency records`,
    });
  }
  const { sessionId, turnId } = options;
  if (sessionId === undefined && turnId === undefined) {
    throw new InvalidOptionsError({
      option: 'sessionId',
      message: 'a record outlives its response only in a session or a turn: give the sessionId or turnId',
    });
  }
  const rawArguments =
    typeof options.arguments === 'string' ? options.arguments : (JSON.stringify(options.arguments) ?? '');
  let args: unknown;
  if (settings.key !== undefined) {
    const parsed = parseArguments(rawArguments, resolvedRuntime(runtime).policy.argumentLimits);
    const validated = parsed.ok ? await tool.validateInput(parsed.value) : undefined;
    if (validated?.ok !== true) {
      throw new InvalidOptionsError({
        option: 'arguments',
        message: `are not valid arguments of tool '${tool.name}', so its key cannot be made of them`,
      });
    }
    args = validated.value;
  }
  const scope = createIdempotencyScope({ sessionId, turnId, store: runtime.policy.store });
  const { store, recordKey } = idempotencyKeyOf(
    tool,
    settings,
    { canonical: canonicalArguments(rawArguments), args, data: options.data },
    scope,
  );
  return store.delete(recordKey);
}
