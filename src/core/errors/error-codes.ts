import {
  DEFAULT_MAX_ARGUMENT_BYTES,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_CALLS_PER_TURN,
  DEFAULT_MAX_INVALID_ATTEMPTS,
  DEFAULT_MAX_MODEL_MESSAGE_CHARS,
  DEFAULT_MAX_ROUND_TRIPS,
  DEFAULT_TIMEOUT_MS,
} from '../defaults.js';

/**
 * Who is to blame for a failure, so a program knows whom to tell:
 * - `model`: the model's behaviour (a bad call, a loop, a forbidden action); a better prompt or model helps.
 * - `tool`: a tool's code or the service behind it (a defect, a broken contract, an outage).
 * - `caller`: the caller's code or configuration (an option, a definition, a callback, a saved state, an abort).
 * - `runtime`: the environment around the run (the model provider failed).
 */
export type Blame = 'model' | 'tool' | 'caller' | 'runtime';

/** One code of the vocabulary, and every place it appears. */
export interface CodeEntry {
  readonly blame: Blame;
  /** One line: what happened (and, for a tool-message code, what the model is told). */
  readonly meaning: string;
  /** True when the chain writes this code at the start of a tool message that the model reads. */
  readonly toolMessage: boolean;
  /** The tool-message code the model sees for this failure, when it is not this code itself (several: by the failure's kind). */
  readonly modelSees?: string | readonly string[];
  /** The error classes whose `code` this is. */
  readonly errorClasses: readonly string[];
  /** True when this code is also a reason for the loop to stop (`outcome.reason`). */
  readonly stop?: true;
}

/**
 * Every code toolwarden uses, one concept per code and one spelling per code: the `code` of every error
 * class, the code that starts a model-visible tool message, and the loop's stop reasons. The table of
 * docs/reference.md is rendered from this one (`renderCodeTable`). The `check` command's finding codes are a report
 * vocabulary of their own (`CheckFindingCode`).
 */
export const ERROR_CODES = {
  // Tool-message codes: the model reads them at the start of a tool message.
  UNKNOWN_TOOL: {
    blame: 'model',
    meaning:
      "The model called a tool that is not registered; it is told the available tools (`unknownTool: 'throw'` throws instead).",
    toolMessage: true,
    errorClasses: ['UnknownToolError'],
  },
  INVALID_JSON: {
    blame: 'model',
    meaning: 'The arguments are not JSON; the model is told the position of the error, never the text.',
    toolMessage: true,
    errorClasses: [],
  },
  INVALID_ARGUMENTS: {
    blame: 'model',
    meaning:
      "The arguments break the tool's input schema; the model is told `path: problem` pairs: the paths kept, each problem redacted, the values it sent withheld.",
    toolMessage: true,
    errorClasses: [],
  },
  ARGUMENTS_TOO_LARGE: {
    blame: 'model',
    meaning: `The argument text is over ${DEFAULT_MAX_ARGUMENT_BYTES / 1024 / 1024} MiB (by default).`,
    toolMessage: true,
    errorClasses: [],
  },
  ARGUMENTS_TOO_DEEP: {
    blame: 'model',
    meaning: `The arguments nest deeper than ${DEFAULT_MAX_ARGUMENT_DEPTH} levels (by default).`,
    toolMessage: true,
    errorClasses: [],
  },
  FORBIDDEN_KEY: {
    blame: 'model',
    meaning: 'The arguments hold a key that could pollute prototypes (`__proto__`, `constructor.prototype`).',
    toolMessage: true,
    errorClasses: [],
  },
  TOO_MANY_INVALID_ATTEMPTS: {
    blame: 'model',
    meaning: `One tool got invalid arguments ${DEFAULT_MAX_INVALID_ATTEMPTS} times in one turn (by default); the model is told to stop trying it.`,
    toolMessage: true,
    errorClasses: [],
  },
  TOOL_CALL_LIMIT: {
    blame: 'model',
    meaning: `The calls of one turn reached a limit, per tool (${DEFAULT_MAX_CALLS_PER_TOOL}) or in total (${DEFAULT_MAX_CALLS_PER_TURN}); thrown unless \`onLimitExceeded: 'feedback'\`.`,
    toolMessage: true,
    errorClasses: ['ToolCallLimitExceededError', 'LoopStoppedError'],
    stop: true,
  },
  TOOL_ERROR: {
    blame: 'model',
    meaning: `The tool failed in a way the model can fix (bad arguments, a business rule). A \`ToolInputError\`'s message (or one opted in with \`showErrorMessages\`) is shown, redacted and cut to ${DEFAULT_MAX_MODEL_MESSAGE_CHARS} characters; any other error's text is withheld: the model is told the argument paths it names and not to repeat the call unchanged.`,
    toolMessage: true,
    errorClasses: ['ToolInputError'],
  },
  TOOL_UNAVAILABLE: {
    blame: 'tool',
    meaning:
      "The tool failed transiently (a timeout, ECONNRESET, 429, 5xx) and still did after retries with backoff; the model is told to try later (and a `TransientToolError`'s message, redacted).",
    toolMessage: true,
    errorClasses: ['TransientToolError'],
  },
  PERMISSION_DENIED: {
    blame: 'model',
    meaning:
      'The action is not permitted (`PermissionDeniedError`, 401/403); the model learns only that, and not to repeat the call; an audit event is emitted.',
    toolMessage: true,
    errorClasses: ['PermissionDeniedError'],
  },
  CONTRACT_VIOLATION: {
    blame: 'tool',
    meaning: "The tool's result breaks its declared output schema; the model is told so, never the value.",
    toolMessage: true,
    errorClasses: ['ContractViolationError'],
  },
  INTERNAL_ERROR: {
    blame: 'tool',
    meaning:
      'A fatal failure (a defect); the model learns only that the tool failed and not to repeat the call, and the execution throws (`TOOL_FATAL`).',
    toolMessage: true,
    errorClasses: [],
  },
  ABORTED: {
    blame: 'caller',
    meaning:
      "The caller's abort signal fired: calls cut off are answered with this code (never as an error to fix), and `executeToolCalls` rejects with the signal's reason.",
    toolMessage: true,
    errorClasses: [],
    stop: true,
  },
  IDEMPOTENCY_CONFLICT: {
    blame: 'model',
    meaning:
      "A write tool's own idempotency key was used before with other arguments; the call was not run, and the model is told the action was already done with other arguments.",
    toolMessage: true,
    errorClasses: ['IdempotencyError'],
  },
  ALREADY_IN_PROGRESS: {
    blame: 'runtime',
    meaning:
      'An identical write was still running (in this process or another) for as long as the tool may take; the call was not run, and the model is told not to call it again now.',
    toolMessage: true,
    errorClasses: ['IdempotencyError'],
  },
  OUTCOME_UNKNOWN: {
    blame: 'runtime',
    meaning:
      'An identical at-most-once write (the default) was cut off after it started (a timeout, a transient failure, an abort, a defect) or its process died before its outcome was recorded: it may have taken effect, so the call is refused, whatever ran since, until someone checks and deletes the record (`forgetIdempotencyRecord`).',
    toolMessage: true,
    errorClasses: ['IdempotencyError'],
  },

  // The MCP proxy's own refusals: the model reads the code at the start of the refusal's text.
  RATE_LIMITED: {
    blame: 'model',
    meaning:
      "The MCP proxy's calls per minute or per hour (`rateLimits`, per client or per tool, counted in the store) are reached; the model is told when to try again, the audit which limit.",
    toolMessage: false,
    errorClasses: [],
  },
  SECRET_DETECTED: {
    blame: 'model',
    meaning:
      "The MCP proxy found a secret (a key, a token, a JWT, a password) in a call's arguments or in its result and `secrets` says block; the model and the audit are told which rule matched, never the secret.",
    toolMessage: false,
    errorClasses: [],
  },
  TOOL_DEFINITION_CHANGED: {
    blame: 'tool',
    meaning:
      'An MCP server\'s tool definition (description, schemas, annotations) differs from the one pinned at its first `tools/list`; under `pins.onChange: "refuse"` the tool is withheld until its new digest is approved (`pins.approve`).',
    toolMessage: false,
    errorClasses: [],
  },

  // Tool failures the model sees under another code.
  TOOL_TIMEOUT: {
    blame: 'tool',
    meaning: `A tool did not settle within its timeout (${DEFAULT_TIMEOUT_MS / 1000} s by default); retried as a transient failure.`,
    toolMessage: false,
    modelSees: 'TOOL_UNAVAILABLE',
    errorClasses: ['ToolTimeoutError'],
  },
  TOOL_DEFECT: {
    blame: 'tool',
    meaning: 'A tool threw `FatalToolError` to mark a defect: the failure is fatal.',
    toolMessage: false,
    modelSees: 'INTERNAL_ERROR',
    errorClasses: ['FatalToolError'],
  },
  RESULT_NOT_SERIALIZABLE: {
    blame: 'tool',
    meaning:
      'A tool returned a value that cannot become text (a cycle, a function, too deep): the failure is fatal.',
    toolMessage: false,
    modelSees: 'INTERNAL_ERROR',
    errorClasses: ['ResultSerializationError'],
  },
  TOOL_FATAL: {
    blame: 'tool',
    meaning: 'A tool failed fatally: the execution stopped and threw, every result kept in `partialResult`.',
    toolMessage: false,
    modelSees: 'INTERNAL_ERROR',
    errorClasses: ['ToolExecutionError', 'LoopStoppedError'],
    stop: true,
  },
  MCP_CALL_ERROR: {
    blame: 'tool',
    meaning:
      "An MCP server's `tools/call` failed (`McpCallError.kind`): the tool answered `isError: true` or the server a JSON-RPC error (the model sees `TOOL_ERROR`), no answer in time or the connection is gone (`TOOL_UNAVAILABLE`), or the exchange broke the protocol (`INTERNAL_ERROR`).",
    toolMessage: false,
    modelSees: ['TOOL_ERROR', 'TOOL_UNAVAILABLE', 'INTERNAL_ERROR'],
    errorClasses: ['McpCallError'],
  },
  MCP_LIST_ERROR: {
    blame: 'tool',
    meaning:
      "An MCP server's `tools/list` answer cannot be read (no tools array, a cursor that is not a string, repeats or never ends): its tools are not offered.",
    toolMessage: false,
    errorClasses: ['McpListError'],
  },

  // Why the loop stopped (`LoopStoppedError` only under `throwOnStop: true`).
  MAX_ROUND_TRIPS: {
    blame: 'model',
    meaning: `The loop reached its ceiling of model calls (${DEFAULT_MAX_ROUND_TRIPS} by default) without a final answer.`,
    toolMessage: false,
    errorClasses: ['LoopStoppedError'],
    stop: true,
  },
  BUDGET_EXHAUSTED: {
    blame: 'model',
    meaning: 'The loop spent its token, time or cost budget without a final answer.',
    toolMessage: false,
    errorClasses: ['LoopStoppedError'],
    stop: true,
  },
  LOOP_DETECTED: {
    blame: 'model',
    meaning:
      'The loop guard saw the model repeat itself (same call and result, a cycle, no new result) or retry a tool that stays unavailable; under `guardTools` and the MCP proxy, a call made after the stop is answered with this code.',
    toolMessage: false,
    errorClasses: ['LoopStoppedError'],
    stop: true,
  },
  MODEL_ERROR: {
    blame: 'runtime',
    meaning:
      'The model call threw (after the retries of a transient failure: a 408, 409, 429 or 5xx, a network failure, a timeout), its stream broke off before its finish, or the model answered with neither text nor tool calls.',
    toolMessage: false,
    errorClasses: ['LoopStoppedError', 'ModelStreamError', 'ModelTimeoutError'],
    stop: true,
  },

  STOP_CONDITION: {
    blame: 'caller',
    meaning: 'A condition of `stopWhen` made with `stopIf` said stop; its name and detail are the evidence.',
    toolMessage: false,
    errorClasses: ['LoopStoppedError'],
    stop: true,
  },

  // The caller's code or configuration.
  NO_TOOL_CALL: {
    blame: 'caller',
    meaning: '`executeToolCalls` was given a model response that requests no tool call.',
    toolMessage: false,
    errorClasses: ['NoToolCallError'],
  },
  INVALID_OPTIONS: {
    blame: 'caller',
    meaning: 'An option given to a toolwarden function is invalid; `option` names it.',
    toolMessage: false,
    errorClasses: ['InvalidOptionsError'],
  },
  TOOL_DEFINITION_INVALID: {
    blame: 'caller',
    meaning: 'A tool definition or the set of tools is invalid (a name, a schema, a duplicate).',
    toolMessage: false,
    errorClasses: ['ToolDefinitionError'],
  },
  TOOL_FORMAT_INVALID: {
    blame: 'caller',
    meaning:
      "A tool definition in a provider's format (OpenAI, Anthropic, MCP, BFCL) cannot be imported or exported.",
    toolMessage: false,
    errorClasses: ['ToolFormatError'],
  },
  TOOL_MODULE_UNUSABLE: {
    blame: 'caller',
    meaning: '`toolwarden check` cannot load a tools module, or the module exports no tools.',
    toolMessage: false,
    errorClasses: ['ToolModuleError'],
  },
  AUDIT_LOG_UNREADABLE: {
    blame: 'caller',
    meaning:
      '`toolwarden report` cannot read the file it was given as an audit log (missing, a folder, a database without the audit table).',
    toolMessage: false,
    errorClasses: ['AuditLogError'],
  },
  PROXY_CONFIG_INVALID: {
    blame: 'caller',
    meaning:
      "`toolwarden mcp-proxy`'s config file (`toolwarden.json`) is not valid JSON or breaks the documented schema; every problem is listed with its JSON path.",
    toolMessage: false,
    errorClasses: ['ProxyConfigError'],
  },
  GATEWAY_CONFIG_INVALID: {
    blame: 'caller',
    meaning:
      "`toolwarden gateway`'s config file is not valid JSON, breaks the documented schema or names an environment variable that is not set; every problem is listed with its JSON path.",
    toolMessage: false,
    errorClasses: ['GatewayConfigError'],
  },
  CALLBACK_FAILED: {
    blame: 'caller',
    meaning:
      'A callback the caller passed (handoff, fallback, cost, a store, a hook, a stop condition) threw, hung past its timeout or returned something invalid; the run rejects with `CallbackError`, which keeps the outcome so far.',
    toolMessage: false,
    errorClasses: ['CallbackError'],
    stop: true,
  },
  STORE_UNAVAILABLE: {
    blame: 'runtime',
    meaning:
      'The store (memory, SQLite, Redis) failed or could not be reached, or holds a value toolwarden did not write; write tools fail closed (the model is told the tool is unavailable), read tools follow `onStoreFailure`.',
    toolMessage: false,
    modelSees: 'TOOL_UNAVAILABLE',
    errorClasses: ['StoreError'],
    stop: true,
  },
  INVALID_RUN_STATE: {
    blame: 'caller',
    meaning:
      'A saved run state cannot be resumed: it is malformed, of an unsupported version, or tampered with.',
    toolMessage: false,
    errorClasses: ['RunStateError'],
  },
  APPROVAL_REFUSED: {
    blame: 'caller',
    meaning:
      "A resume was refused before anything ran: the run is unknown or its approval expired, it was already resumed (or another process is resuming it), a decision names a call it does not wait for, or an approval's `argumentsDigest` is not the call's; nothing runs twice.",
    toolMessage: false,
    errorClasses: ['ApprovalError'],
  },
} as const satisfies Readonly<Record<string, CodeEntry>>;

/** The type of `ERROR_CODES`: every code with its blame, its model text and its class. */
export type ErrorCodeTable = typeof ERROR_CODES;

/** Every code toolwarden uses. */
export type ToolwardenCode = keyof typeof ERROR_CODES;

/** The codes that start a model-visible tool message. */
export type ToolMessageCode = {
  [K in ToolwardenCode]: ErrorCodeTable[K]['toolMessage'] extends true ? K : never;
}[ToolwardenCode];

/** Why the loop stopped: the codes that are also a reason to stop (`outcome.reason === 'LOOP_DETECTED'`). */
export type StopReason = {
  [K in ToolwardenCode]: (typeof ERROR_CODES)[K] extends { readonly stop: true } ? K : never;
}[ToolwardenCode];

/** Who is to blame for a code. */
export function blameOf(code: ToolwardenCode): Blame {
  return ERROR_CODES[code].blame;
}

/** The code table as markdown, as docs/reference.md shows it between `<!-- codes:start -->` and `<!-- codes:end -->`. */
export function renderCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, entry]: [string, CodeEntry]) => {
    const sees = typeof entry.modelSees === 'string' ? [entry.modelSees] : entry.modelSees;
    const seen = entry.toolMessage
      ? 'this code'
      : sees === undefined
        ? '—'
        : sees.map((seenCode) => `\`${seenCode}\``).join(', ');
    const classes =
      entry.errorClasses.length === 0 ? '—' : entry.errorClasses.map((name) => `\`${name}\``).join(', ');
    const stop = entry.stop === true ? 'yes' : '—';
    return `| \`${code}\` | ${entry.blame} | ${entry.meaning} | ${seen} | ${classes} | ${stop} |`;
  });
  return [
    '| code | blame | meaning | the model sees | error class | stops the loop |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
