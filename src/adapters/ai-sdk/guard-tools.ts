import { randomUUID } from 'node:crypto';
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { emptyTurnCounts } from '../../chain/limits.js';
import { argumentText } from '../../chain/normalize-tool-calls.js';
import type { SingleCallOptions } from '../../chain/runtime.js';
import { createToolRuntime, type ToolRuntime } from '../../chain/runtime.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import { ToolDefinitionError } from '../../core/errors/tool-definition-error.js';
import type { GuardState, LoopEvidence } from '../../core/guard-state.js';
import { hintsByTool } from '../../guard/loop-hints.js';
import { sanitizeName } from '../../redact/redact.js';
import { resolveGuard } from '../../run/stop-conditions.js';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';
import { mayChangeWorld, type ToolEffect } from '../../tools/tool-effect.js';
import { checkToolName } from '../../tools/tool-name.js';
import { GuardedToolError } from './guard-tools-error.js';
import {
  createStepGuard,
  type GuardPrepareStep,
  type GuardStopCondition,
  type StepGuard,
} from './guard-tools-loop.js';
import {
  type CheckedGuardOptions,
  checkGuardOptions,
  type GuardedToolOptions,
  type GuardToolsOptions,
} from './guard-tools-options.js';
import { loadAsSchema, toStandardSchema } from './guard-tools-schema.js';

/** What `guardTools` returns: pass `tools`, `stopWhen` and `prepareStep` to `generateText` / `streamText` / `ToolLoopAgent`. */
export interface GuardedTools<TOOLS extends ToolSet> {
  /** The same tools (names, descriptions, schemas, `needsApproval`, `toModelOutput`), each `execute` run through the chain. */
  readonly tools: TOOLS;
  /** True once the loop guard stopped the loop and the final step ended. Combine with `stepCountIs(n)`. */
  readonly stopWhen: GuardStopCondition<TOOLS>;
  /** Turns the tools off for one last step after the guard says stop, so the model answers in text. */
  readonly prepareStep: GuardPrepareStep<TOOLS>;
  /** Why the guard stopped the current (or last) `generateText` call; undefined when it did not. */
  stopEvidence(): LoopEvidence | undefined;
  /** The loop guard's memory: plain JSON, per conversation. */
  guardState(): GuardState;
}

/** What the model reads when it calls a tool after the guard stopped the loop. */
const LOOP_DETECTED_TEXT =
  'LOOP_DETECTED: tool calls are off because the same calls kept repeating. Answer with what you have.';

/** What the chain's tool gets as caller data: the AI SDK's options of the call. */
interface CallData {
  readonly options: ToolExecutionOptions;
}

/**
 * Guards AI SDK tools in place: each tool's `execute` runs through toolwarden's chain (validation by the
 * tool's own schema, classification, redaction, per-tool timeout, limits, output contract, idempotent
 * writes), everything else of the tool is kept, and the returned `stopWhen` and `prepareStep` stop a
 * looping model with evidence and a final text answer. A failure reaches the model as a `tool-error`
 * whose text is toolwarden's (see `GuardedToolError`). Tools without `execute` (client-side) and
 * provider-executed tools pass through untouched. Throws `InvalidOptionsError` for a bad tool set or
 * option, now rather than at the model's first call.
 */
export function guardTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options?: GuardToolsOptions,
): GuardedTools<TOOLS> {
  if (typeof tools !== 'object' || tools === null || Array.isArray(tools)) {
    throw new InvalidOptionsError({
      option: 'tools',
      message: 'guardTools expects a ToolSet (an object of tools by name)',
    });
  }
  const entries = Object.entries(tools as Record<string, unknown>);
  const guarded = new Set<string>();
  for (const [name, tool] of entries) {
    if (typeof tool !== 'object' || tool === null) {
      throw new InvalidOptionsError({
        option: `tools.${sanitizeName(name)}`,
        message: 'must be an AI SDK tool (an object)',
      });
    }
    if (!runsHere(tool as Tool)) continue;
    const problem = checkToolName(name);
    if (problem !== undefined) {
      throw new InvalidOptionsError({
        option: `tools.${JSON.stringify(sanitizeName(name))}`,
        message: `${problem}; rename the tool`,
      });
    }
    guarded.add(name);
  }
  const checked = checkGuardOptions(options, guarded);
  void loadAsSchema().catch(() => undefined);
  const runtime = createToolRuntime({
    ...checked.policy,
    tools: [...guarded].map((name) =>
      chainTool(name, (tools as Record<string, Tool>)[name] as Tool, checked),
    ),
    unknownTool: 'feedback',
    onLimitExceeded: 'feedback',
  });
  const isWrite = (name: string) => {
    const tool = runtime.tools.get(name);
    return tool !== undefined && mayChangeWorld(tool.effect);
  };
  const guard = checked.loopGuard === false ? undefined : resolveGuard(checked.loopGuard);
  const steps = createStepGuard({
    config:
      guard === undefined
        ? undefined
        : {
            thresholds: guard,
            hintsOf: hintsByTool((name) => runtime.tools.get(name)?.loop, guard.hints),
          },
    isWrite,
    onLoop: checked.onLoop,
  });
  const call: CallSettings = {
    runtime,
    steps,
    context: {
      sessionId: checked.sessionId ?? `guard_${randomUUID()}`,
      counts: emptyTurnCounts(),
      ...(checked.onEvent === undefined ? {} : { onEvent: checked.onEvent }),
      includeContent: checked.includeContent,
    },
  };
  const wrapped = entries.map(([name, tool]) =>
    guarded.has(name) ? [name, { ...(tool as Tool), execute: guardedExecute(name, call) }] : [name, tool],
  );
  return {
    tools: Object.fromEntries(wrapped) as TOOLS,
    // The guard reads only what every tool set's steps have (calls, errors): one guard serves any `TOOLS`.
    stopWhen: steps.stopWhen as unknown as GuardStopCondition<TOOLS>,
    prepareStep: steps.prepareStep as unknown as GuardPrepareStep<TOOLS>,
    stopEvidence: steps.evidence,
    guardState: steps.state,
  };
}

/** A tool whose `execute` runs in this process: not client-side (no `execute`), not provider-executed. */
function runsHere(tool: Tool): boolean {
  return typeof tool.execute === 'function' && tool.type !== 'provider';
}

interface CallSettings {
  readonly runtime: ToolRuntime;
  readonly steps: StepGuard;
  readonly context: SingleCallOptions;
}

/** The `execute` the AI SDK calls: the call through the chain; a failure thrown as the model's text. */
function guardedExecute(name: string, settings: CallSettings) {
  const { runtime, steps, context } = settings;
  return async (input: unknown, options: ToolExecutionOptions): Promise<unknown> => {
    const fail = (
      message: string,
      code: GuardedToolError['code'],
      errorClass?: GuardedToolError['errorClass'],
    ) =>
      new GuardedToolError({
        message,
        code,
        toolName: name,
        toolCallId: options.toolCallId,
        ...(errorClass === undefined ? {} : { errorClass }),
      });
    if (steps.toolsOff()) throw fail(LOOP_DETECTED_TEXT, 'LOOP_DETECTED');
    await loadAsSchema();
    const data: CallData = { options };
    // One text for the chain and the guard: the input encoded once.
    const call = { id: options.toolCallId, name, arguments: argumentText(input ?? {}) };
    const outcome = await runtime.executeToolCall(call, {
      data,
      ...context,
      ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
    });
    switch (outcome.type) {
      case 'interrupted':
        // `decide` answered ask: a person is asked through the AI SDK's own `needsApproval`, before this
        // `execute`, and nothing here can pause the AI SDK's step for another answer. Refuse, never run.
        throw fail(runtime.policy.deniedText, 'PERMISSION_DENIED', 'denied');
      case 'answered': {
        steps.record(call, outcome.result);
        if (outcome.isError) throw fail(outcome.content, outcome.code ?? 'TOOL_ERROR', outcome.errorClass);
        return outcome.value;
      }
      default: {
        const never: never = outcome;
        return never;
      }
    }
  };
}

/**
 * The effect the lists give a tool: named in `writes`, or asking for approval (it acts on something, so a
 * replayed approval must not run it again): a write; named in `reads`: a read; else nobody said: unknown.
 */
function listedEffect(name: string, tool: Tool, checked: CheckedGuardOptions): ToolEffect {
  if (checked.writes.has(name)) return 'write';
  if (checked.reads.has(name)) return 'read';
  return hasApproval(tool) ? 'write' : 'unknown';
}

/** The chain's tool for one AI SDK tool: its schemas, the settings of `options`, its `execute` with the AI SDK's options. */
function chainTool(name: string, tool: Tool, checked: CheckedGuardOptions): AnyTool {
  const own: GuardedToolOptions = checked.perTool.get(name) ?? {};
  const { revalidate, idempotency, ...settings } = own;
  const effect = own.effect ?? listedEffect(name, tool, checked);
  const option = `perTool.${name}`;
  const list = checked.writes.has(name) ? 'writes' : checked.reads.has(name) ? 'reads' : undefined;
  if (list !== undefined && own.effect !== undefined && own.effect !== listedEffect(name, tool, checked)) {
    throw new InvalidOptionsError({
      option: `${option}.effect`,
      message: `is '${String(own.effect)}', yet ${list} names the tool`,
    });
  }
  const execute = tool.execute as NonNullable<Tool['execute']>;
  try {
    return defineTool({
      ...settings,
      name,
      description:
        typeof tool.description === 'string' && tool.description.trim() !== '' ? tool.description : name,
      effect,
      input: toStandardSchema(revalidate === false ? undefined : tool.inputSchema, 'input'),
      ...(tool.outputSchema === undefined ? {} : { output: toStandardSchema(tool.outputSchema, 'output') }),
      // A write runs once per tool call id: the AI SDK sends each call once, so only a re-sent call repeats it.
      ...(effect !== 'write'
        ? idempotency === undefined
          ? {}
          : { idempotency }
        : {
            idempotency:
              idempotency === false
                ? false
                : {
                    ...idempotency,
                    key: (_args: unknown, { data }) => (data as CallData).options.toolCallId,
                  },
          }),
      // Not an async function: the tool's own promise goes to the chain as it is, so a tool that has
      // answered by the time it returns (an async body without awaits) settles before the chain arms its
      // timeout timer, as a plain chain tool does, instead of one await later.
      execute: (args, context) => {
        const { options } = context.data as CallData;
        // The chain's signal (the caller's, the timeout's) is made when the tool reads it: most never do,
        // and making it costs an AbortController and an AbortSignal.any per call: a proxy reads it only
        // when the tool asks for `abortSignal`.
        const withSignal = new Proxy(options, {
          get: (target, key) => (key === 'abortSignal' ? context.signal : Reflect.get(target, key)),
        });
        // The AI SDK's rule: an async iterable (a streaming tool) answers with the last value it yields.
        const output: unknown = execute(args, withSignal);
        return isAsyncIterable(output) ? lastOf(output) : output;
      },
    });
  } catch (error) {
    if (!ToolDefinitionError.isInstance(error)) throw error;
    throw new InvalidOptionsError({ option, message: error.message });
  }
}

function hasApproval(tool: Tool): boolean {
  return tool.needsApproval === true || typeof tool.needsApproval === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A streaming tool's final output (the AI SDK's result is the last value it yields; the rest are preliminary). */
async function lastOf(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}
