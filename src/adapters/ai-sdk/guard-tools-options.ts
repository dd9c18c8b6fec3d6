import type { ToolRuntimeOptions } from '../../chain/tool-runtime-options.js';
import { InvalidOptionsError } from '../../core/errors/invalid-options-error.js';
import type { LoopEvidence } from '../../core/guard-state.js';
import type { ToolEvent, ToolEventListener } from '../../core/tool-event.js';
import { checkFunction, describeOptionValue } from '../../options/check-option.js';
import { sanitizeName } from '../../redact/redact.js';
import type { GuardOptions } from '../../run/stop-conditions.js';
import type { ToolDefinition } from '../../tools/define-tool.js';

/** The chain's settings of one AI SDK tool (see `defineTool`); each wins over the policy's. */
export type GuardedToolOptions = Partial<
  Pick<
    ToolDefinition<unknown, unknown>,
    | 'effect'
    | 'timeoutMs'
    | 'retries'
    | 'maxCallsPerTurn'
    | 'classifyError'
    | 'showErrorMessages'
    | 'onContractViolation'
    | 'loop'
  >
> & {
  /**
   * Write tools only: `false` runs every call; `mode`, `ttlMs`, `leaseMs` as for `defineTool`. The key is
   * always the AI SDK's tool call id (with the arguments' digest checked against it).
   */
  readonly idempotency?:
    | false
    | {
        readonly mode?: 'at-least-once' | 'at-most-once';
        readonly ttlMs?: number;
        readonly leaseMs?: number;
      };
  /**
   * Validate the input again with the tool's own schema inside the chain (default true). The AI SDK
   * validated it already; set `false` for a schema that transforms its input into something it would
   * not accept itself (`z.string().transform(Number)`), which would fail a second validation.
   */
  readonly revalidate?: boolean;
};

/** The chain's policy fields `guardTools` takes: those that mean something for one call of an AI SDK tool (see `ToolRuntimeOptions`). */
export type GuardToolsPolicy = Pick<
  ToolRuntimeOptions,
  | 'timeoutMs'
  | 'limits'
  | 'retry'
  | 'maxArgumentBytes'
  | 'maxArgumentDepth'
  | 'maxResultChars'
  | 'classifyError'
  | 'showErrorMessages'
  | 'onContractViolation'
  | 'decide'
  | 'wrapToolExecution'
  | 'store'
  | 'onStoreFailure'
>;

const POLICY_KEYS = [
  'timeoutMs',
  'limits',
  'retry',
  'maxArgumentBytes',
  'maxArgumentDepth',
  'maxResultChars',
  'classifyError',
  'showErrorMessages',
  'onContractViolation',
  'decide',
  'wrapToolExecution',
  'store',
  'onStoreFailure',
] as const satisfies readonly (keyof GuardToolsPolicy)[];

/** `guardTools(tools, options)`. Every field is optional. */
export interface GuardToolsOptions extends GuardToolsPolicy {
  /**
   * Names of the write tools: run once per tool call id (idempotent), never retried, limited as writes. A
   * tool with `needsApproval` is a write unless `perTool` says otherwise.
   */
  readonly writes?: readonly string[];
  /**
   * Names of the read tools: retried after a transient failure, judged as reads by the loop guard. A tool
   * named in neither list (nor given an `effect` in `perTool`) is of unknown effect: never retried, and taken
   * by the loop guard as a call that may change something (see docs/effects.md).
   */
  readonly reads?: readonly string[];
  /** Settings per tool name. */
  readonly perTool?: Readonly<Record<string, GuardedToolOptions>>;
  /**
   * The conversation the calls belong to: the scope of the write records and session limits in the
   * store. Default: one of this guard's own (records last as long as the guard and its store). Give it,
   * with a shared `store`, when each request builds its own guard.
   */
  readonly sessionId?: string;
  /** The loop guard's thresholds and hints (`loopGuard` of the core), or `false` for none. */
  readonly loopGuard?: GuardOptions | false;
  /** Called once when the loop guard says stop, with its evidence. */
  readonly onLoop?: (evidence: LoopEvidence) => void;
  /** The chain's developer events (`tool-call-start`, `tool-call-end`, …). */
  readonly onEvent?: (event: ToolEvent) => void;
  /** Events carry the unredacted error and offending values (default false). */
  readonly includeContent?: boolean;
}

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  ...POLICY_KEYS,
  'writes',
  'reads',
  'perTool',
  'sessionId',
  'loopGuard',
  'onLoop',
  'onEvent',
  'includeContent',
]);

const TOOL_KEYS: ReadonlySet<string> = new Set([
  'effect',
  'timeoutMs',
  'retries',
  'maxCallsPerTurn',
  'classifyError',
  'showErrorMessages',
  'onContractViolation',
  'loop',
  'idempotency',
  'revalidate',
]);

/** The options' own fields, checked (the policy fields are checked when the chain is built). */
export interface CheckedGuardOptions {
  readonly policy: GuardToolsPolicy;
  readonly writes: ReadonlySet<string>;
  readonly reads: ReadonlySet<string>;
  readonly perTool: ReadonlyMap<string, GuardedToolOptions>;
  readonly sessionId: string | undefined;
  readonly loopGuard: GuardOptions | false;
  readonly onLoop: ((evidence: LoopEvidence) => void) | undefined;
  readonly onEvent: ToolEventListener | undefined;
  readonly includeContent: boolean;
}

/** Checks `guardTools`' options against the tool names: every mistake is an `InvalidOptionsError` now. */
export function checkGuardOptions(options: unknown, toolNames: ReadonlySet<string>): CheckedGuardOptions {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionsError({
      option: 'guardTools',
      message: `options must be an object, got ${describeOptionValue(options)}`,
    });
  }
  const given = options as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    throw new InvalidOptionsError({
      option: sanitizeName(unknown[0] as string),
      message: `is not an option of guardTools (known: ${[...KNOWN_KEYS].join(', ')})`,
    });
  }
  const policy: Record<string, unknown> = {};
  for (const key of POLICY_KEYS) if (given[key] !== undefined) policy[key] = given[key];
  const sessionId = given.sessionId;
  if (
    sessionId !== undefined &&
    (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 200)
  ) {
    throw new InvalidOptionsError({
      option: 'sessionId',
      message: `must be a non-empty string of at most 200 characters, got ${describeOptionValue(sessionId)}`,
    });
  }
  const loopGuard = given.loopGuard ?? {};
  if (
    loopGuard !== false &&
    (typeof loopGuard !== 'object' || loopGuard === null || Array.isArray(loopGuard))
  ) {
    throw new InvalidOptionsError({
      option: 'loopGuard',
      message: `must be an object of thresholds, or false, got ${describeOptionValue(loopGuard)}`,
    });
  }
  if (given.includeContent !== undefined && typeof given.includeContent !== 'boolean') {
    throw new InvalidOptionsError({ option: 'includeContent', message: 'must be a boolean' });
  }
  return {
    policy: policy as GuardToolsPolicy,
    ...checkEffectLists(given.writes, given.reads, toolNames),
    perTool: checkPerTool(given.perTool, toolNames),
    sessionId,
    loopGuard: loopGuard as GuardOptions | false,
    onLoop: checkFunction(given.onLoop as GuardToolsOptions['onLoop'], { option: 'onLoop' }),
    onEvent: checkFunction(given.onEvent as ToolEventListener | undefined, { option: 'onEvent' }),
    includeContent: given.includeContent === true,
  };
}

function checkEffectLists(
  writes: unknown,
  reads: unknown,
  toolNames: ReadonlySet<string>,
): { readonly writes: ReadonlySet<string>; readonly reads: ReadonlySet<string> } {
  const checked = {
    writes: checkNames(writes, 'writes', toolNames),
    reads: checkNames(reads, 'reads', toolNames),
  };
  for (const name of checked.reads) {
    if (checked.writes.has(name)) {
      throw new InvalidOptionsError({
        option: 'reads',
        message: `names "${name}", which writes names too: a tool is one or the other`,
      });
    }
  }
  return checked;
}

function checkNames(names: unknown, option: string, toolNames: ReadonlySet<string>): ReadonlySet<string> {
  if (names === undefined) return new Set();
  if (!Array.isArray(names)) {
    throw new InvalidOptionsError({
      option,
      message: `must be an array of tool names, got ${describeOptionValue(names)}`,
    });
  }
  for (const [index, name] of names.entries()) checkKnownName(name, toolNames, `${option}[${index}]`);
  return new Set(names as string[]);
}

function checkPerTool(
  perTool: unknown,
  toolNames: ReadonlySet<string>,
): ReadonlyMap<string, GuardedToolOptions> {
  const checked = new Map<string, GuardedToolOptions>();
  if (perTool === undefined) return checked;
  if (typeof perTool !== 'object' || perTool === null || Array.isArray(perTool)) {
    throw new InvalidOptionsError({
      option: 'perTool',
      message: `must be an object of settings by tool name, got ${describeOptionValue(perTool)}`,
    });
  }
  for (const [name, settings] of Object.entries(perTool)) {
    const option = `perTool.${sanitizeName(name)}`;
    checkKnownName(name, toolNames, option);
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
      throw new InvalidOptionsError({
        option,
        message: `must be an object, got ${describeOptionValue(settings)}`,
      });
    }
    const unknown = Object.keys(settings).filter((key) => !TOOL_KEYS.has(key));
    if (unknown.length > 0) {
      throw new InvalidOptionsError({
        option: `${option}.${sanitizeName(unknown[0] as string)}`,
        message: `is not a tool setting (known: ${[...TOOL_KEYS].join(', ')})`,
      });
    }
    const { revalidate } = settings as { revalidate?: unknown };
    if (revalidate !== undefined && typeof revalidate !== 'boolean') {
      throw new InvalidOptionsError({ option: `${option}.revalidate`, message: 'must be a boolean' });
    }
    checked.set(name, settings as GuardedToolOptions);
  }
  return checked;
}

function checkKnownName(name: unknown, toolNames: ReadonlySet<string>, option: string): void {
  if (typeof name !== 'string' || !toolNames.has(name)) {
    throw new InvalidOptionsError({
      option,
      message: `names no guarded tool: ${typeof name === 'string' ? JSON.stringify(sanitizeName(name)) : describeOptionValue(name)} (tools: ${[...toolNames].map(sanitizeName).join(', ')})`,
    });
  }
}
