/**
 * Every default that changes behaviour lives here, and only here.
 */

/**
 * The longest delay a timer can hold (2^31 - 1 ms): Node fires a larger `setTimeout` after 1 ms (with a
 * TimeoutOverflowWarning), so every timeout, delay and time budget option is refused above it.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** Calls to one tool allowed in one turn (a turn starts at the last user message). Spring AI 2.0.1: 40. */
export const DEFAULT_MAX_CALLS_PER_TOOL = 40;
/** Calls to all tools together allowed in one turn. Spring AI 2.0.1: 150. */
export const DEFAULT_MAX_CALLS_PER_TURN = 150;
/** Invalid-argument results for one tool in one turn before the chain stops trying that tool. */
export const DEFAULT_MAX_INVALID_ATTEMPTS = 3;

/** Calls of one response run at the same time, at most. */
export const DEFAULT_CONCURRENCY = 4;
/** Write tools run one at a time by default. */
export const DEFAULT_WRITE_CONCURRENCY = 1;

/** Per-call timeout of a tool's execute, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Retries after a transient failure: read tools. */
export const DEFAULT_READ_RETRIES = 2;
/**
 * Retries after a transient failure: write tools (not idempotent unless told otherwise). An at-most-once
 * write (the default of a deduplicated one) is never retried, whatever this says.
 */
export const DEFAULT_WRITE_RETRIES = 0;
/** Exponential backoff with full jitter: base and ceiling of one delay, in milliseconds. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 100;
export const DEFAULT_RETRY_MAX_DELAY_MS = 2_000;

/** Raw argument text larger than this (UTF-8 bytes) is rejected before parsing. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 1024 * 1024;
/** Arguments nested deeper than this (objects and arrays) are rejected. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** Tool-message content longer than this (characters) is truncated with a marker. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;
/** Result values nested deeper than this cannot be serialized. */
export const DEFAULT_MAX_RESULT_DEPTH = 256;

/**
 * An error's own message, when the model may see it (a `ToolInputError`, a `TransientToolError`, or an error a
 * tool or the policy opted in with `showErrorMessages`), is cut to this many characters after redaction.
 */
export const DEFAULT_MAX_MODEL_MESSAGE_CHARS = 300;
/**
 * Whether the model sees the message of an error of unknown provenance (a plain `Error` from a driver, a
 * `TypeError`, a thrown string): no. It gets the stable code and the hint of the error's class; a tool or the
 * policy opts in with `showErrorMessages` (then redaction applies).
 */
export const DEFAULT_SHOW_ERROR_MESSAGES = false;
/** Every text the model reads from the runtime (a tool message's error text, a loop note) is cut to this. */
export const DEFAULT_MAX_MODEL_TEXT_CHARS = 8_000;
/** A validation issue's message (a schema library's text) is cut to this many characters after redaction. */
export const DEFAULT_MAX_ISSUE_MESSAGE_CHARS = 160;
/** An argument path (a JSON Pointer) shown to the model is cut to this many characters. */
export const DEFAULT_MAX_ARGUMENT_PATH_CHARS = 120;
/** Argument summaries in developer events are cut to this many characters after redaction. */
export const DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS = 200;
/** Characters of one string value an argument summary shows (a path, an id; a long text is cut). */
export const DEFAULT_MAX_ARGUMENT_SUMMARY_VALUE_CHARS = 100;
/** Validation issues listed to the model, at most. */
export const DEFAULT_MAX_REPORTED_ISSUES = 10;

/** Tool names the providers accept (OpenAI, Anthropic, Gemini agree on this set). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** An unknown tool: `feedback` tells the model which tools exist; `throw` raises `UnknownToolError`. */
export const DEFAULT_UNKNOWN_TOOL_POLICY = 'feedback';
/** A call limit: `throw` raises `ToolCallLimitExceededError` (Spring AI's behaviour); `feedback` only tells the model. */
export const DEFAULT_LIMIT_POLICY = 'throw';
/** A result that breaks its output contract: the model gets `CONTRACT_VIOLATION` instead of the value. */
export const DEFAULT_CONTRACT_VIOLATION_POLICY = 'feedback';

/**
 * Model calls in one request, at most. The step caps of the frameworks (Vercel AI SDK 20 steps, OpenAI
 * Agents SDK 10 turns, LangGraph 25) are their loop detectors; here the semantic guard stops a loop within
 * three rounds of the round that shows it, so the ceiling is a cost bound only: it limits what a model
 * that keeps making new, distinct calls can spend. 50 lets the long legitimate tasks finish (a 30-page
 * pagination, a 40-item batch) and still bounds a runaway to 50 model calls; bound money and time with
 * `tokenBudget`, `costBudget` and `timeBudgetMs`.
 */
export const DEFAULT_MAX_ROUND_TRIPS = 50;
/** Loop guard: identical call + identical result this many times stops (the 2nd repeat). */
export const DEFAULT_REPEAT_LIMIT = 3;
/** Loop guard: one tool, different arguments, identical result this many times stops. */
export const DEFAULT_SAME_RESULT_LIMIT = 3;
/**
 * Loop guard: the same call failing transiently (after the chain's own retries) this many times stops. A
 * transient failure is not a loop (no warning, no nudge), but a tool that stays down must not be called
 * until the ceiling.
 */
export const DEFAULT_TRANSIENT_REPEAT_LIMIT = 5;
/** Loop guard: longest cycle period looked for, in rounds (A-B-A-B is 2). */
export const DEFAULT_MAX_CYCLE_PERIOD = 4;
/** Loop guard: rounds in a row without a new result that stop. */
export const DEFAULT_NO_PROGRESS_ROUNDS = 4;
/** Loop guard: rounds remembered (bounded memory), and calls remembered per round. */
export const DEFAULT_GUARD_WINDOW_ROUNDS = 32;
export const DEFAULT_MAX_CALLS_REMEMBERED_PER_ROUND = 16;
/**
 * Loop guard: a result is news when none of this many latest calls gave it (see the guard's novelty). A
 * loop repeats within a few rounds; a bound keeps the cost per call flat when rounds run 8 calls at once.
 */
export const DEFAULT_GUARD_NEWS_MEMORY = 64;
/** Loop guard: tell the model once, on the repeat before the stop, what it is repeating (a note beside the result). */
export const DEFAULT_NUDGE = true;
/**
 * Loop guard: a result shorter than this (characters of its fingerprinted text) is a verdict, an ack or an
 * empty answer, which distinct arguments legitimately share (`{"available":false}`, `{"status":"sent"}`,
 * `[]`); only longer results, which carry content, count for the same-result detector.
 */
export const DEFAULT_SAME_RESULT_MIN_CHARS = 100;
/** Loop guard: unchanged answers (after the first) of a tool declared `loop: { polled: true }` allowed in one request. */
export const DEFAULT_MAX_UNCHANGED_POLLS = 20;
/**
 * Loop guard: result fields that never count, for every tool (volatile by nature: a clock, a request id, a
 * cursor). Matched by key name at any depth, with case, `_` and `-` ignored. A tool adds its own with
 * `loop: { ignoreFields }`.
 */
export const DEFAULT_VOLATILE_RESULT_FIELDS: readonly string[] = [
  'timestamp',
  'serverTime',
  'checkedAt',
  'fetchedAt',
  'retrievedAt',
  'generatedAt',
  'servedAt',
  'requestId',
  'traceId',
  'spanId',
  'correlationId',
  'nonce',
  'etag',
  'cursor',
  'nextCursor',
  'pageToken',
  'nextPageToken',
  'latencyMs',
  'elapsedMs',
];
/**
 * Retries of a model call that failed transiently (a 408, 409, 429 or 5xx, a network failure, an attempt
 * that timed out): 2, the AI SDK's own default (`maxRetries` of `generateText`), so a run through
 * `fromAiSdkModel` survives what `generateText` survives. 0 turns them off.
 */
export const DEFAULT_MODEL_RETRIES = 2;
/**
 * The first wait before a model retry; each later one doubles (2 s, 4 s, ... as the AI SDK waits), half of
 * it fixed and half random (jitter), so clients that failed together do not come back together.
 */
export const DEFAULT_MODEL_RETRY_BASE_DELAY_MS = 2_000;
/**
 * The longest wait before a model retry, the provider's `Retry-After` (or `retry-after-ms`) included: a
 * provider that asks for longer is not waited for, the run stops at once and says so. 60 s is where the AI
 * SDK stops believing the header; a wait of minutes is a quota, not a blip.
 */
export const DEFAULT_MODEL_RETRY_MAX_DELAY_MS = 60_000;
/**
 * One attempt at a model call, at most: then its request is aborted and the attempt fails as a timeout
 * (retried as a transient failure). Ten minutes, the default of OpenAI's and Anthropic's own SDKs: a
 * reasoning model or a local model on a CPU can legitimately take minutes over one answer, and an attempt
 * cut short is paid for and then paid again, so the default errs long; it exists so that a provider that
 * never answers cannot hang a run without a time budget forever. Bound a run's time with `timeBudgetMs`.
 */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;

/** A store call (load or save of a session's guard state) or a handoff that takes longer than this fails the run (`CALLBACK_FAILED`). */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5_000;

/**
 * How long a store keeps what it holds for a session (the guard's memory, the session's call counters)
 * after the session's last write: 24 hours. Each request's save starts it again.
 */
export const DEFAULT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What the model is told of a call denied before it ran (by a `decide` hook or a person's
 * decision): that it is not permitted and not to repeat it, nothing about why.
 */
export const DEFAULT_DENIED_TEXT = 'This action is not permitted; do not repeat this call.';

/**
 * How long a paused run saved in a store waits for its decisions: 24 hours. A resume after that is refused
 * (`expired`); the record is kept as long again, so a late resume is told `expired`, not `unknown-run`.
 */
export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a resume's claim on a paused run holds when the resume has no time budget (with one: the budget
 * plus the callback timeout). A claim whose resume neither finished nor paused the run again by then (its
 * process died, or it failed before it could write the run's record) is abandoned: a later resume takes it over.
 * A resume still running past it may be overtaken; its approved writes still run once (their records).
 */
export const DEFAULT_RESUME_CLAIM_LEASE_MS = 10 * 60 * 1000;

/**
 * Characters of a resume decision's `by` (who decided: a user id or name), at most. It is the operator's
 * id, not model text, so it is kept as given (in the `tool-call-end` event and the audit record), but
 * bounded: a log line stays a line.
 */
export const DEFAULT_MAX_DECIDED_BY_CHARS = 200;

/**
 * What a read tool does when the store that counts the session's calls fails: `open` (default) runs it
 * uncounted, with a `store-fail` event, so an outage of the store does not take every read
 * down with it; `closed` refuses it as the tool being unavailable. Write tools always fail closed.
 */
export const DEFAULT_READ_ON_STORE_FAILURE = 'open';

/** A store call the chain makes (a reservation, an idempotency record) that takes longer fails as the store being unavailable. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;
/**
 * A claim or a reservation carries a deadline (`deadline` of `set` and `reserve`): the store applies it only
 * before then, by its own clock (Redis' `TIME`), so a command that stalled and lands after its caller gave
 * up does nothing. The deadline is this much before the caller gives up (at most half its timeout): the
 * store's clock may lag the caller's by up to this margin and a late command is still refused.
 */
export const DEFAULT_STORE_CLOCK_MARGIN_MS = 500;

/**
 * Idempotent writes: how a write tool's call is kept from running twice when it is not told otherwise.
 * Either way the call is recorded as started before it runs and its result after, and a true duplicate
 * gets the recorded result. `at-most-once` (the default) never runs a call again once its tool started
 * without saying what happened: after a timeout, a transient failure, a defect, an abort or a crash
 * between running the tool and recording its result, the outcome is unknown, and an identical call is
 * refused (`OUTCOME_UNKNOWN`) until someone checks and forgets the record (`forgetIdempotencyRecord`).
 * Running such a write again could do it twice (a second charge), and nobody said that is harmless.
 * `at-least-once` (as AWS Lambda Powertools does) is a tool's explicit choice: those failures free the
 * call for a retry, and a claim whose process died is taken over once its lease has passed. A tool that
 * sets `retries` above 0 has said a failed attempt may run again, so that is its default mode.
 */
export const DEFAULT_IDEMPOTENCY_MODE = 'at-most-once';
/** How long the record of an idempotent write (its result, or that it started) is kept: 24 hours. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * Added to the longest a call may take (its timeout per attempt, and the retry delays) to make the lease of
 * a started record: the time to deliver and record the result. A started record older than its lease is
 * taken to be of a process that died.
 */
export const DEFAULT_IDEMPOTENCY_LEASE_MARGIN_MS = 5_000;
/**
 * A duplicate that finds the call still running looks again after this many milliseconds, doubling each
 * time, for as long as the tool's timeout; then it is told the call is in progress.
 */
export const DEFAULT_IDEMPOTENCY_POLL_MS = 10;
/** The longest pause between two looks of a duplicate waiting for a running call. */
export const DEFAULT_IDEMPOTENCY_MAX_POLL_MS = 500;

/**
 * Attempts at saving the guard's memory when other requests of the session keep saving first. Each failed
 * attempt means another request's save landed, so up to this many requests of one session saving at once
 * all land (32 was tested); a store that refuses every write fails the run instead of looping forever.
 */
export const DEFAULT_GUARD_SAVE_ATTEMPTS = 64;

/** Imported schemas nested deeper than this (or cyclic) are refused: twice the argument depth cap. */
export const MAX_SCHEMA_DEPTH = 2 * DEFAULT_MAX_ARGUMENT_DEPTH;
/** Imported tool names longer than this are refused before they are mapped to a provider-legal name. */
export const MAX_ORIGINAL_TOOL_NAME_LENGTH = 256;

/** `toolwarden check`: each step of an example (validate the input, execute, validate the result) must settle within this. */
export const DEFAULT_EXAMPLE_TIMEOUT_MS = 5_000;
/** The longest `toolwarden check --timeout-ms`: the longest timer. */
export const MAX_EXAMPLE_TIMEOUT_MS = MAX_TIMER_MS;
/**
 * `toolwarden check` and `toolwarden run --tools`: importing a tools module must finish within this
 * (`--load-timeout-ms`). `check` loads it in a process of its own and stops that process; `run` refuses it.
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 10_000;
/**
 * `toolwarden check`: the process that loads the module must start (Node, a TypeScript loader) within
 * this, before the import's own limit begins.
 */
export const CHECK_START_TIMEOUT_MS = 30_000;
/**
 * `toolwarden check`: an example's steps (validate the input and the expected output, execute, validate
 * the result) have `--timeout-ms` each, which aborts the step but cannot stop code that loops
 * synchronously. The process running the examples is stopped when one example takes its steps' time
 * plus this margin.
 */
export const CHECK_HARD_LIMIT_MARGIN_MS = 1_000;
/** `toolwarden check`: after the last example, errors tool code scheduled (a late rejection) are awaited this long. */
export const CHECK_DRAIN_MS = 100;

/**
 * `toolwarden/sqlite`: how long a write waits for another connection (another process) to finish its
 * transaction on the same file before it fails with `StoreError` (`unavailable`). better-sqlite3 is
 * synchronous, so the waiting blocks the event loop: keep it short.
 */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5_000;
/**
 * `toolwarden/sqlite`: every this many writes of one store, its write also deletes every expired entry and
 * counter (expired rows are never read; this only bounds the file's growth in a long-running process).
 */
export const DEFAULT_SQLITE_SWEEP_EVERY_WRITES = 1_000;

/**
 * PostgreSQL store (`toolwarden/postgres`): every operation, and each connection of a store made from a
 * URL, settles within this (a `StoreError`, `unavailable`, when the database does not answer); it covers
 * the wait for a free connection of the pool too. A `set` or `reserve` that timed out does nothing should
 * it reach the database later (its deadline, see `DEFAULT_STORE_CLOCK_MARGIN_MS`).
 */
export const DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS = 5_000;
/** PostgreSQL store over a URL: the most connections its own pool opens (node-postgres' default). */
export const DEFAULT_POSTGRES_MAX_CONNECTIONS = 10;
/**
 * `toolwarden/postgres`: every this many writes of one store, it deletes every expired entry and counter
 * (expired rows are never read; this only bounds the tables' growth).
 */
export const DEFAULT_POSTGRES_SWEEP_EVERY_WRITES = 1_000;

/**
 * Redis store (`toolwarden/redis`): every operation, and the first connection of a store made from a URL,
 * settles within this (a `StoreError`, `unavailable`, when Redis does not answer), so an outage never
 * hangs a call. A `set` or `reserve` that timed out does nothing should it reach Redis later (its
 * deadline, see `DEFAULT_STORE_CLOCK_MARGIN_MS`); a `delete` or `release` may still be applied.
 */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;
/**
 * Redis store over a URL: after a lost connection, the client reconnects forever, waiting 50 ms, 100 ms,
 * 200 ms… between tries, never longer than this (plus up to 100 ms of jitter, so processes spread out).
 */
export const DEFAULT_REDIS_RECONNECT_MAX_DELAY_MS = 2_000;
/**
 * An audit sink keeps at most this many records waiting for a write (a disk that is slow or full): beyond
 * it, a record appended is refused and reported lost, so a log that cannot be written never grows the heap.
 */
export const DEFAULT_AUDIT_MAX_BUFFERED_RECORDS = 10_000;
/**
 * An audit sink writes a batch this long after its first record, so that the records of calls ending in
 * separate turns of the event loop (each after a model call) share one write rather than one each; close,
 * flush and process exit write at once.
 */
export const DEFAULT_AUDIT_FLUSH_DELAY_MS = 100;

/**
 * `toolwarden report` keeps one row per tool name up to this many; later names count together as
 * `(other tools)`. Tool names in an audit log are partly the model's text (unknown tools), so their
 * number is unbounded.
 */
export const DEFAULT_REPORT_MAX_TOOLS = 1_000;

/** The report shows a tool name up to this many characters (cut with `…`). */
export const DEFAULT_REPORT_MAX_TOOL_NAME_CHARS = 120;

/**
 * The report remembers the calls of this many runs that have not ended (to count repeats within a run);
 * beyond it, the oldest run's memory is dropped (a log of runs that never ended must not grow the heap).
 */
export const DEFAULT_REPORT_MAX_OPEN_RUNS = 10_000;

/** A line of an audit log longer than this (bytes) is skipped unread: a record is a few hundred bytes. */
export const DEFAULT_REPORT_MAX_LINE_BYTES = 1024 * 1024;

/** The playbook's ceiling: the P95 of rounds per run plus this margin. */
export const REPORT_CEILING_MARGIN = 2;

/**
 * `toolwarden report` recommends a ceiling only from at least this many finished runs. Below 20 the
 * nearest-rank P95 is the slowest run itself, so one run would set the ceiling; 30 leaves runs above the
 * P95 and is the usual floor below which a sample's tail says little.
 */
export const MIN_RUNS_FOR_CEILING = 30;

/**
 * `toolwarden mcp-proxy`: calls to one tool in one client session. A session of a desktop assistant or an
 * IDE agent spans many turns (hours), so the per-turn figures above would stop ordinary work; 200 still
 * bounds a runaway session to a few minutes of one tool.
 */
export const DEFAULT_PROXY_MAX_CALLS_PER_TOOL = 200;
/** `toolwarden mcp-proxy`: calls to all tools together in one client session. */
export const DEFAULT_PROXY_MAX_CALLS_PER_SESSION = 1_000;
/**
 * `toolwarden mcp-proxy`: a tool's `structuredContent` is checked against the `outputSchema` the server
 * declares (MCP: clients SHOULD validate tool results before passing them to the model). A conforming
 * result passes unchanged; a tool without an `outputSchema` is not checked.
 */
export const DEFAULT_PROXY_OUTPUT_CONTRACT = 'from-server';
/** `toolwarden mcp-proxy`: the text of an upstream error result is redacted before the client sees it. */
export const DEFAULT_PROXY_REDACT_ERRORS = true;
/**
 * `toolwarden mcp-proxy`: destructive tools are confirmed (the tools a server marks `destructiveHint:
 * true`; with `trustAnnotations`, every tool MCP's defaults make destructive), and a client that cannot be
 * asked (no elicitation) is refused the call: a confirmation that cannot happen is not a yes.
 */
export const DEFAULT_PROXY_CONFIRM_TOOLS = 'destructive';
export const DEFAULT_PROXY_IF_NO_ELICITATION = 'deny';
/**
 * `toolwarden mcp-proxy`: MCP says clients MUST treat annotations as untrusted unless the server is
 * trusted. Untrusted, a hint that asks for more caution (`destructiveHint: true`) is believed and a hint
 * that asks for less (`readOnlyHint`, `destructiveHint: false`) is not.
 */
export const DEFAULT_PROXY_TRUST_ANNOTATIONS = false;
/**
 * `toolwarden mcp-proxy`: OpenTelemetry spans and metrics are opt-in: `@opentelemetry/api` is an optional
 * peer, and a proxy started with `npx` has no SDK to send them to.
 */
export const DEFAULT_PROXY_TELEMETRY = false;
/**
 * `toolwarden mcp-proxy`: a secret in the arguments the model sends (a key, a token, a JWT, a private key,
 * a password in a connection string) blocks the call before it reaches the server: redacting it instead
 * would run a write with `[redacted:secret]` in place of a value.
 */
export const DEFAULT_PROXY_SECRETS_IN_ARGUMENTS = 'block';
/**
 * `toolwarden mcp-proxy`: a secret in a successful result is redacted before the model reads it. Docker's
 * gateway blocks results too; blocking a result hides the outcome of a call that already ran (a write the
 * model would then repeat), while redaction removes the same secrets and keeps the rest.
 */
export const DEFAULT_PROXY_SECRETS_IN_RESULTS = 'redact';
/**
 * `toolwarden mcp-proxy`: a tool whose description or schemas changed since its server's first
 * `tools/list` was pinned is withheld (hidden, its calls refused) until the operator approves the new
 * digest (`pins.approve`): a server that rewrites a tool after it was trusted (a "rug pull") gets nothing.
 */
export const DEFAULT_PROXY_PIN_CHANGES = 'refuse';
/** `toolwarden mcp-proxy`: a config file larger than this (bytes) is refused unread. */
export const MAX_PROXY_CONFIG_BYTES = 1024 * 1024;
/** `toolwarden mcp-proxy`: problems a config error lists, at most (then how many more there are). */
export const MAX_PROXY_CONFIG_PROBLEMS = 100;
/** `toolwarden mcp-proxy`: characters of a call's arguments shown to the user who is asked to confirm it. */
export const DEFAULT_PROXY_CONFIRM_PREVIEW_CHARS = 2_000;
/**
 * `toolwarden mcp-proxy`: how long the user has to answer a confirmation (MCP elicitation) before the call
 * is refused as cancelled. A person reads the arguments first: longer than the SDK's 60 s request default.
 */
export const DEFAULT_PROXY_CONFIRM_TIMEOUT_MS = 300_000;
/**
 * `toolwarden mcp-proxy`: the SDK's own timeout of an upstream `tools/call`, beyond the call's own
 * (`timeouts`): the chain's timeout aborts the request first, so the SDK's never cuts a call short.
 */
export const DEFAULT_PROXY_REQUEST_TIMEOUT_MARGIN_MS = 5_000;
/** The MCP proxy's first wait before it connects again to a lost upstream, in ms; it doubles each time. */
export const DEFAULT_PROXY_RECONNECT_INITIAL_MS = 500;
/** The MCP proxy's longest wait between two tries to connect to a lost upstream, in ms. */
export const DEFAULT_PROXY_RECONNECT_MAX_MS = 30_000;
/** The MCP proxy's HTTP front: the largest request body read, in bytes (a larger one is refused, 413). */
export const DEFAULT_PROXY_HTTP_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The MCP proxy's HTTP front: client sessions open at once, at most (one more is refused, 503). */
export const DEFAULT_PROXY_HTTP_MAX_SESSIONS = 1_000;
/** The MCP proxy's HTTP front: a session without a request for this long (ms) is closed. */
export const DEFAULT_PROXY_HTTP_IDLE_MS = 30 * 60_000;
/** The MCP proxy's HTTP front: messages in one JSON-RPC batch, at most (the SDK's own bound). */
export const DEFAULT_PROXY_HTTP_MAX_BATCH = 100;
/** The MCP proxy's HTTP front: an SSE stream quiet this long (ms) gets a comment line, so nothing between closes it. */
export const DEFAULT_PROXY_HTTP_SSE_KEEP_ALIVE_MS = 15_000;
/**
 * The MCP proxy's remote upstreams: the largest answer to one request read, in bytes (as the gateway's
 * `DEFAULT_GATEWAY_MAX_RESPONSE_BYTES`); a larger one fails that request and is not read on.
 */
export const DEFAULT_PROXY_UPSTREAM_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/**
 * The MCP proxy's remote upstreams: tries to open a lost notification (GET) stream again before the server
 * is reported lost (the SDK's own `maxRetries`).
 */
export const DEFAULT_PROXY_UPSTREAM_SSE_RETRIES = 2;
/** The MCP proxy's remote upstreams: the first wait (ms) before a lost notification stream is opened again; 1.5 times longer each try. */
export const DEFAULT_PROXY_UPSTREAM_SSE_RETRY_MS = 1_000;

/**
 * `fromMcpClient`: pages of `tools/list` read at most (the v2 SDK's own cap, `listMaxPages`, is 64): a
 * server whose cursor never ends cannot hold the client forever.
 */
export const DEFAULT_MCP_MAX_LIST_PAGES = 64;
/** `fromMcpClient`: tools kept from a server, at most (the rest are reported as skipped). */
export const DEFAULT_MCP_MAX_TOOLS = 512;
/**
 * `fromMcpClient`: characters of a server's tool description the model is shown, at most (a server can
 * otherwise fill the model's context with one description). Cut ones end with an ellipsis.
 */
export const DEFAULT_MCP_MAX_DESCRIPTION_CHARS = 4_000;
/**
 * `fromMcpClient`: annotations (`readOnlyHint`, `idempotentHint`, ...) are hints the spec says to treat
 * as untrusted unless the server is trusted: by default every tool of a server is a `write` tool.
 */
export const DEFAULT_MCP_TRUSTED = false;

/**
 * `toolwarden gateway`: the address it listens on. 127.0.0.1: a gateway holds (or passes on) provider keys,
 * so it is reachable from this machine only unless the operator says otherwise.
 */
export const DEFAULT_GATEWAY_HOST = '127.0.0.1';
/** `toolwarden gateway`: the port it listens on (0 takes a free one). */
export const DEFAULT_GATEWAY_PORT = 8787;
/** `toolwarden gateway`: the request header that names the conversation (the session) a request belongs to. */
export const DEFAULT_GATEWAY_SESSION_HEADER = 'x-toolwarden-session';
/** `toolwarden gateway`: the response header that says the gateway stopped the turn, and why. */
export const DEFAULT_GATEWAY_STOP_HEADER = 'x-toolwarden-stop';
/**
 * `toolwarden gateway`: a guarded request's body larger than this (bytes) is refused with 413 before it is
 * parsed. 32 MiB holds a long conversation with images inlined as base64.
 */
export const DEFAULT_GATEWAY_MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/**
 * `toolwarden gateway`: a non-streamed answer of the provider larger than this (bytes) is not read whole:
 * the app gets a 502. A streamed answer's tool-call fragments held back at once are bounded by it too.
 */
export const DEFAULT_GATEWAY_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/**
 * `toolwarden gateway`: how long the provider may take to start answering, and then to send the next piece
 * of its answer; past it the request is aborted and the app gets a 504 (or, mid-stream, the stream's clean
 * end). As the model timeout (`DEFAULT_MODEL_TIMEOUT_MS`): a reasoning model can think for minutes.
 */
export const DEFAULT_GATEWAY_UPSTREAM_TIMEOUT_MS = DEFAULT_MODEL_TIMEOUT_MS;
/**
 * `toolwarden gateway`: secrets in the results the app's tools returned are removed before the provider
 * reads them (deterministically, so prompt caching keeps working).
 */
export const DEFAULT_GATEWAY_REDACT_TOOL_RESULTS = true;
/** `toolwarden gateway`: secrets in the arguments of the model's tool calls are left for the app to see (opt-in). */
export const DEFAULT_GATEWAY_REDACT_ARGUMENTS = false;
/**
 * `toolwarden gateway`: what a stopped turn ends with. `final-answer`: the provider is asked once more with
 * tools off and a note, and its text is the answer (a final message is written by the gateway when it still
 * asks for tools); `synthesize`: the gateway writes the final message at once. Never an HTTP error: clients
 * retry those.
 */
export const DEFAULT_GATEWAY_ON_STOP = 'final-answer';
/**
 * `toolwarden gateway`: the effect of a tool the config does not describe. The gateway sees only names, so
 * as everywhere else an undescribed tool is taken the cautious way (`unknown`: the loop guard never takes it
 * for a read, and a stop's text says it ran with an effect nobody declared).
 */
export const DEFAULT_GATEWAY_TOOL_EFFECT = 'unknown';
/** `toolwarden gateway`: a config file larger than this (bytes) is refused unread. */
export const MAX_GATEWAY_CONFIG_BYTES = 1024 * 1024;
/** How long the gateway remembers an answer of a Responses chain (`previous_response_id`): an hour, a tool loop's pace. */
export const DEFAULT_GATEWAY_CHAIN_TTL_MS = 60 * 60 * 1000;
/**
 * An answer's chain memory whose texts (its opening, its calls' arguments and results) pass this many bytes
 * (UTF-8) is not kept: the next request is judged from itself.
 */
export const MAX_GATEWAY_CHAIN_MEMORY_BYTES = 256 * 1024;

/**
 * Characters of tool results the gateway remembers finding no secret in (all of them together, the oldest
 * forgotten first; each counted with 64 more for its entry): each request of a turn brings every earlier
 * result again, and one read clean is not scanned again. About 8 MB at most.
 */
export const MAX_GATEWAY_CLEAN_TEXT_CHARS = 4 * 1000 * 1000;
/**
 * Characters of tool calls (arguments and results, and 400 for what each reading holds) whose reading by the
 * loop guard the gateway remembers (all of them together, the oldest forgotten first): each request of a turn
 * replays every earlier round, and a call read once is not read again. About 8 MB at most.
 */
export const MAX_GATEWAY_READ_CALL_CHARS = 4 * 1000 * 1000;
/**
 * `toolwarden/dbos`: how long a durable turn's tool step waits for a store that fails before its write could
 * claim its record (nothing ran), trying again with backoff, before it gives up and the turn stops as
 * `STORE_UNAVAILABLE`: 5 minutes. DBOS waits for its own database without a bound.
 */
export const DEFAULT_DURABLE_STORE_WAIT_MS = 5 * 60 * 1000;
/** `toolwarden demo durable`: the PostgreSQL it makes its database and schema on (trust auth, as on a dev machine). */
export const DEFAULT_DEMO_DATABASE = 'postgres://postgres@127.0.0.1:5432/postgres';
