import { parseArgs } from 'node:util';
import { loadTools } from '../check/load-tools.js';
import { describeThrown } from '../check/preview-value.js';
import { ToolModuleError } from '../check/tool-module-error.js';
import {
  DEFAULT_LOAD_TIMEOUT_MS,
  DEFAULT_MODEL_RETRIES,
  DEFAULT_MODEL_TIMEOUT_MS,
} from '../core/defaults.js';
import { IdempotencyError } from '../core/errors/idempotency-error.js';
import type { LoopOutcome } from '../core/loop-outcome.js';
import type { Model } from '../core/model.js';
import { stopEvidenceSummary } from '../core/stop-evidence-summary.js';
import { runToolLoop } from '../run/run-tool-loop.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import { argumentErrorMessage } from './argument-error-message.js';
import type { CommandIo } from './command-io.js';
import { runDurableTurn } from './durable-run.js';
import { openAiCompatibleModel } from './open-ai-compatible-model.js';
import { packageVersion } from './package-version.js';
import { RUN_EXIT_CODES, runExitCode } from './run-exit-code.js';
import { runProgress } from './run-progress.js';

export const RUN_USAGE = `Usage: toolwarden run --base-url <url> --model <name> [--tools <module>] [options] "<prompt>"

Runs the guarded tool loop against an OpenAI-compatible chat completions server (Ollama, vLLM,
llama.cpp's server, a hosted API) with the tools a module exports, shows each round on stderr and prints
the answer on stdout. Needs the AI SDK's provider: npm install ai@6 @ai-sdk/openai-compatible@2.

Options:
  --base-url <url>         the server's API root, e.g. http://127.0.0.1:11434/v1
  --model <name>           the model's name on that server
  --tools <module>         a module exporting tools (as for toolwarden check); none: the model only talks
  --load-timeout-ms <n>    importing the tools module must finish within n ms (default ${DEFAULT_LOAD_TIMEOUT_MS}; it
                           loads in this process, so a synchronous loop at import cannot be stopped:
                           toolwarden check loads it in a process of its own)
  --api-key-env <NAME>     read the API key from this environment variable (never pass a key as a flag)
  --max-round-trips <n>    the ceiling of model calls (default ${50})
  --time-budget-ms <n>     the run's wall-clock budget
  --model-retries <n>      retries of a model call that failed transiently (429, 5xx, network,
                           timeout; default ${DEFAULT_MODEL_RETRIES}, 0 for none)
  --model-timeout-ms <n>   one attempt at a model call, at most (default ${DEFAULT_MODEL_TIMEOUT_MS})
  --durable <postgres-url> run the turn as a DBOS workflow on that PostgreSQL (each model call and tool
                           call a step; toolwarden's records in its \`toolwarden\` schema): a run killed
                           mid-turn is resumed by the same command, its finished steps not run again.
                           Needs npm install @dbos-inc/dbos-sdk@5 pg@8
  --session <id>           with --durable: the conversation (default cli)
  --turn <id>              with --durable: the turn (default: a digest of the prompt); the same id with
                           another prompt is refused
  --json                   print the outcome as JSON instead of the answer
  -h, --help               show this text

Exit codes: 0 completed, 1 stopped by an error (model, tool, callback), 2 usage error (bad arguments, a
tools module that does not load), 3 stopped by the loop guard, 4 stopped by a limit, 5 waiting for an
approval, 130 aborted.
`;

interface RunArgs {
  readonly baseUrl: string;
  readonly model: string;
  readonly tools: string | undefined;
  readonly loadTimeoutMs: number | undefined;
  readonly apiKey: string | undefined;
  readonly maxRoundTrips: number | undefined;
  readonly timeBudgetMs: number | undefined;
  readonly modelRetries: number | undefined;
  readonly modelTimeoutMs: number | undefined;
  readonly json: boolean;
  readonly prompt: string;
  readonly durable:
    | { readonly url: string; readonly sessionId: string; readonly turnId: string | undefined }
    | undefined;
}

type ParsedRunArgs =
  | { readonly kind: 'run'; readonly args: RunArgs }
  | { readonly kind: 'help' }
  | { readonly kind: 'usage-error'; readonly message: string };

/** Seams for tests: the model (default: the OpenAI-compatible server) and the environment. */
export interface RunCommandDeps {
  readonly model?: (args: RunArgs) => Promise<Model>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Ends the run as `ABORTED` (main wires Ctrl-C to it). */
  readonly signal?: AbortSignal;
  /** stderr is a terminal: the progress is one live line. */
  readonly live?: boolean;
}

/** `toolwarden run`: returns the exit code (see RUN_EXIT_CODES). */
export async function runRunCommand(
  argv: readonly string[],
  io: CommandIo,
  deps: RunCommandDeps = {},
): Promise<number> {
  const parsed = parseRunArgs(argv, deps.env ?? process.env);
  switch (parsed.kind) {
    case 'usage-error':
      await io.stderr(`toolwarden run: ${parsed.message}\n\n${RUN_USAGE}`);
      return RUN_EXIT_CODES.usage;
    case 'help':
      await io.stdout(RUN_USAGE);
      return 0;
    case 'run':
      return run(parsed.args, io, deps);
    default: {
      const unreachable: never = parsed;
      throw new TypeError(`unknown arguments ${String(unreachable)}`);
    }
  }
}

async function run(args: RunArgs, io: CommandIo, deps: RunCommandDeps): Promise<number> {
  let tools: AnyTool[];
  let model: Model;
  try {
    tools =
      args.tools === undefined
        ? []
        : await loadDefinedTools(args.tools, io.cwd, args.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS);
    model = await (deps.model ?? openAiCompatibleModel)(args);
  } catch (error) {
    await io.stderr(
      `toolwarden run: ${ToolModuleError.isInstance(error) ? error.message : describeThrown(error)}\n`,
    );
    return RUN_EXIT_CODES.usage;
  }
  // Progress lines are written as they come; the stream keeps their order.
  let written = Promise.resolve();
  const write = (text: string) => {
    written = written.then(() => io.stderr(text));
  };
  const onEvent = runProgress({ write, live: deps.live === true });
  const settings = {
    ...(args.maxRoundTrips === undefined ? {} : { maxRoundTrips: args.maxRoundTrips }),
    ...(args.modelRetries === undefined ? {} : { modelRetries: args.modelRetries }),
    ...(args.modelTimeoutMs === undefined ? {} : { modelTimeoutMs: args.modelTimeoutMs }),
  };
  let outcome: LoopOutcome;
  if (args.durable === undefined) {
    outcome = await runToolLoop({
      model,
      tools,
      messages: [{ role: 'user', content: args.prompt }],
      onEvent,
      ...settings,
      ...(args.timeBudgetMs === undefined ? {} : { timeBudgetMs: args.timeBudgetMs }),
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    });
  } else {
    try {
      outcome = await runDurableTurn({
        ...args.durable,
        model,
        tools,
        prompt: args.prompt,
        version: `toolwarden-run-${await packageVersion()}`,
        settings: { ...settings, onEvent },
      });
    } catch (error) {
      await written;
      const text = IdempotencyError.isInstance(error)
        ? `IDEMPOTENCY_CONFLICT: turn ${error.toolCallId} ran before with another prompt (give another --turn)`
        : describeThrown(error);
      await io.stderr(`toolwarden run --durable: ${text}\n`);
      return RUN_EXIT_CODES.error;
    }
  }
  await written;
  const answer =
    outcome.type === 'interrupted'
      ? `waiting for approval: ${outcome.pending.map((call) => call.toolName).join(', ')}`
      : outcome.text;
  await io.stdout(args.json ? `${JSON.stringify(outcomeJson(outcome), null, 2)}\n` : `${answer}\n`);
  return runExitCode(outcome);
}

/** The module's tools, defined; refused as `toolwarden check` refuses a module (no tools, a thenable). */
async function loadDefinedTools(modulePath: string, cwd: string, timeoutMs: number): Promise<AnyTool[]> {
  const { targets } = await loadTools(modulePath, cwd, { timeoutMs });
  return targets.map((target) => {
    if ('validateInput' in target) return target as AnyTool;
    try {
      return defineTool(target);
    } catch (error) {
      throw new ToolModuleError({
        modulePath,
        problem: 'definition-invalid',
        message: `a tool of ${modulePath} is not valid: ${describeThrown(error)}`,
        cause: error,
      });
    }
  });
}

/** The outcome as JSON: what ended the run and why, the answer, the totals and the conversation. */
function outcomeJson(outcome: LoopOutcome): Record<string, unknown> {
  return {
    type: outcome.type,
    ...(outcome.type === 'stopped'
      ? { reason: outcome.reason, evidence: stopEvidenceSummary(outcome.evidence) }
      : {}),
    ...(outcome.type === 'interrupted'
      ? { pending: outcome.pending.map(({ toolCallId, toolName }) => ({ toolCallId, toolName })) }
      : { text: outcome.text }),
    runId: outcome.runId,
    roundTrips: outcome.roundTrips,
    toolCalls: outcome.toolCalls,
    usage: outcome.usage,
    messages: outcome.messages,
  };
}

function parseRunArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ParsedRunArgs {
  const usageError = (message: string): ParsedRunArgs => ({ kind: 'usage-error', message });
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        model: { type: 'string' },
        tools: { type: 'string' },
        'load-timeout-ms': { type: 'string' },
        'api-key-env': { type: 'string' },
        'max-round-trips': { type: 'string' },
        'time-budget-ms': { type: 'string' },
        'model-retries': { type: 'string' },
        'model-timeout-ms': { type: 'string' },
        json: { type: 'boolean' },
        durable: { type: 'string' },
        session: { type: 'string' },
        turn: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError(argumentErrorMessage(error));
  }
  if (values.help === true) return { kind: 'help' };
  const baseUrl = values['base-url'];
  if (typeof baseUrl !== 'string') return usageError('missing --base-url');
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl) || !URL.canParse(baseUrl)) {
    return usageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  const model = values.model;
  if (typeof model !== 'string' || model.trim() === '') return usageError('missing --model');
  if (positionals.length !== 1) {
    return usageError(`expected one prompt (quote it), got ${positionals.length}`);
  }
  const prompt = positionals[0] as string;
  if (prompt.trim() === '') return usageError('the prompt is empty');
  const keyName = values['api-key-env'];
  let apiKey: string | undefined;
  if (typeof keyName === 'string') {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyName)) {
      return usageError(
        `--api-key-env takes the NAME of an environment variable, got ${JSON.stringify(keyName)}`,
      );
    }
    apiKey = env[keyName];
    if (apiKey === undefined || apiKey === '')
      return usageError(`the environment variable ${keyName} is not set`);
  }
  const problems: string[] = [];
  const count = (flag: string, min = 1, max = 999_999_999): number | undefined => {
    const raw = values[flag];
    if (raw === undefined) return undefined;
    if (
      typeof raw === 'string' &&
      /^(?:0|[1-9]\d{0,8})$/.test(raw) &&
      Number(raw) >= min &&
      Number(raw) <= max
    ) {
      return Number(raw);
    }
    problems.push(`--${flag} must be a whole number from ${min} to ${max}, got ${String(raw)}`);
    return undefined;
  };
  const maxRoundTrips = count('max-round-trips');
  const timeBudgetMs = count('time-budget-ms');
  const modelRetries = count('model-retries', 0, 100);
  const modelTimeoutMs = count('model-timeout-ms');
  const loadTimeoutMs = count('load-timeout-ms');
  if (problems[0] !== undefined) return usageError(problems[0]);
  const durable = durableArgs(values);
  if (typeof durable === 'string') return usageError(durable);
  return {
    kind: 'run',
    args: {
      baseUrl,
      model,
      tools: typeof values.tools === 'string' ? values.tools : undefined,
      loadTimeoutMs,
      apiKey,
      maxRoundTrips,
      timeBudgetMs,
      modelRetries,
      modelTimeoutMs,
      json: values.json === true,
      prompt,
      durable,
    },
  };
}

/** `--durable <url>` with `--session` and `--turn`, or what is wrong with them. */
function durableArgs(values: Record<string, string | boolean | undefined>): RunArgs['durable'] | string {
  const { durable: url, session, turn } = values;
  if (url === undefined) {
    return session === undefined && turn === undefined ? undefined : '--session and --turn go with --durable';
  }
  if (typeof url !== 'string' || !/^postgres(?:ql)?:\/\/\S+$/.test(url) || !URL.canParse(url)) {
    return `--durable takes a postgres:// URL, got ${JSON.stringify(url)}`;
  }
  for (const [flag, id] of [
    ['session', session],
    ['turn', turn],
  ] as const) {
    if (id !== undefined && (typeof id !== 'string' || !/^[\w.:-]{1,200}$/.test(id))) {
      return `--${flag} takes an id of letters, digits and . : _ - (at most 200), got ${JSON.stringify(id)}`;
    }
  }
  return {
    url,
    sessionId: typeof session === 'string' ? session : 'cli',
    turnId: typeof turn === 'string' ? turn : undefined,
  };
}
