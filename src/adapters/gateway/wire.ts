import type { TokenUsage } from '../../core/model.js';
import type { SseEvent } from './sse-events.js';

/**
 * What a wire adapter hands the gateway's core: plain records of the conversation, whatever the wire
 * format (OpenAI chat completions, Anthropic Messages, OpenAI Responses). The core judges them; the
 * wire reads and writes its own shapes.
 */

/** One tool call as the model asked for it. */
export interface WireCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text, as the model sent them. */
  readonly arguments: string;
}

/** A call of the history and, when the app answered it, what its tool returned (as the provider reads it). */
export interface HistoryCall extends WireCall {
  readonly result?: {
    readonly content: string;
    /** The app said the tool failed (Anthropic's `is_error`); chat completions cannot say it. */
    readonly isError: boolean;
  };
}

/** One round of the turn: an assistant answer that asked for calls, and the results the app sent back. */
export interface HistoryRound {
  readonly calls: readonly HistoryCall[];
}

/** The current turn as the request shows it: from the last user message on. */
export interface TurnHistory {
  /**
   * The turn within its conversation, the same for every request of the turn: a digest of the last user
   * message and of where it stands in the history.
   */
  readonly anchor: string;
  readonly rounds: readonly HistoryRound[];
  /**
   * The turn's earlier rounds are known by their calls only (`ChainMemory.kept: 'calls'`): the guard goes
   * on from the session's memory after them (its record's `end`), not from the turn's start.
   */
  readonly resumesGuard?: true;
}

/** What names the conversation, besides the gateway's header: the request's own fields, and its opening. */
export interface IdentityHints {
  /** A conversation id the request carries (chat completions: `metadata.session_id` and the like). */
  readonly conversation?: string;
  /** The end user the request names (`user`): conversations of one user share a session. */
  readonly user?: string;
  /** The system prompt and the first user message, as text to digest (the last resort). */
  readonly opening: string;
}

/** A note for the model beside the result of one call (the loop guard's, before it stops). */
export interface CallNote {
  readonly callId: string;
  readonly text: string;
}

/** A guarded request, read. */
export interface WireRequest {
  readonly stream: boolean;
  readonly model: string | undefined;
  readonly identity: IdentityHints;
  readonly turn: TurnHistory;
  /**
   * The body to send upstream with the notes beside their results: undefined when the app's own bytes go
   * as they came (nothing redacted, no note).
   */
  body(notes: readonly CallNote[]): string | undefined;
  /** The body of the last request of a stopped turn: the same conversation, tools off, and `note` for the model. */
  toolsOffBody(notes: readonly CallNote[], note: string): string;
  /**
   * On a wire whose requests may carry only what is new since an earlier answer (the Responses API's
   * `previous_response_id`, or its `conversation`): the gateway keeps what it saw of each answer
   * (`ChainMemory`, by answer id, or by conversation id) and reads the request again with it. Undefined on
   * wires that carry the whole conversation every time.
   */
  readonly chain?: RequestChain;
}

/** A request of a chained wire: the answer it continues, and how it reads with or without the gateway's memory of it. */
export interface RequestChain {
  /** The earlier answer's id (`previous_response_id`); undefined when the request carries its whole history. */
  readonly previous: string | undefined;
  /**
   * The conversation the provider keeps (`conversation`, with no `previous_response_id`): the request
   * carries only what is new, and the gateway's memory of it is kept under the conversation's id (the
   * memory of its last answer), not under each answer's.
   */
  readonly conversation: string | undefined;
  /** False when the provider does not keep the answer (`store: false`): nothing can continue it. */
  readonly remember: boolean;
  /**
   * The request read again with the memory of `previous`. Without it (another gateway answered it with no
   * shared store, or the memory expired), only what the request itself shows is judged, and its turn's
   * anchor says so (`no-memory:`), in the audit too.
   */
  withMemory(memory: ChainMemory | undefined): WireRequest;
  /**
   * What to remember of the conversation at the answer the app gets, whose calls (`pending`) it will
   * answer; `owed`: the calls of a stopped answer the app never saw (their outputs are the gateway's to send).
   */
  memory(pending: readonly WireCall[], owed: readonly string[]): ChainMemory;
}

/** What the gateway remembers of one answer of a chain: enough to rebuild the next request's turn and session. */
export interface ChainMemory {
  readonly identity: IdentityHints;
  readonly anchor: string;
  /**
   * What `rounds` holds. `results`: each call with its result, for an app that chains (its next request
   * brings only the new outputs, and the turn is rebuilt from these). `calls`: each call's id and name
   * only, when the app sent the turn whole (as an app that does not chain does): the counts hold if it
   * chains after all, and the guard goes on from the session's memory, which read the rounds already.
   */
  readonly kept: 'results' | 'calls';
  readonly rounds: readonly HistoryRound[];
  /** The calls the answer asked for: the next request brings their results. */
  readonly pending: readonly WireCall[];
  /**
   * Ids of calls the provider keeps in the answer but the app never saw (the gateway withheld them and wrote
   * the answer itself): the next request gets an output for each from the gateway, so the provider does not
   * refuse a call left unanswered.
   */
  readonly owed: readonly string[];
}

/** The provider's answer, as the core judges it. */
export interface WireAnswer {
  /** The answer's id, on a chained wire (the next request names it as `previous_response_id`). */
  readonly id?: string;
  /** Every tool call the answer asks for (of every choice). */
  readonly calls: readonly WireCall[];
  /** The answer's text (the first choice's). */
  readonly text: string;
  readonly usage?: TokenUsage;
  /** The provider's finish reasons, as it wrote them (for telemetry). */
  readonly finishReasons: readonly string[];
}

/** One step of reading a streamed answer: what to write to the app now, and whether the answer is complete. */
export interface StreamStep {
  readonly write: string;
  /** The answer's calls are complete (or it has none): judge it now, before anything more is written. */
  readonly decide: boolean;
}

/**
 * Reads one streamed answer of the provider. Text passes at once; a tool call's events are held until the
 * answer says it is complete (`decide`), then the core says whether they go (`release`) or the stream ends
 * another way (`finish`).
 */
export interface WireStreamReader {
  push(event: SseEvent): StreamStep;
  /** The answer so far (its calls complete once `decide` was said). */
  answer(): WireAnswer;
  /** What was held, to write now; the events after it pass as they come. */
  release(): string;
  /** The upstream's stream ended before the answer did: what ends the app's stream cleanly (no call in it). */
  cut(): string;
  /** Ends the app's stream with `text` as the rest of the answer, and no call. */
  finish(text: string): string;
  /** The provider ended the stream properly (its last event went through). */
  ended(): boolean;
}

/** How the wire's responses read the gateway's own errors (413, 400, 502, 504). */
export interface WireError {
  readonly status: number;
  readonly message: string;
  /** A short machine code (`body_too_large`, `upstream_timeout`). */
  readonly code: string;
}

/**
 * One wire format on the gateway: which requests it guards, how it reads them and the provider's answers,
 * and how it writes a stop. The core does the rest (identity, the store, the guard, limits, audit, spans).
 */
export interface GatewayWire {
  /** `openai-chat`: in the audit, the spans and the stop header. */
  readonly name: string;
  /** `gen_ai.provider.name` of its calls (`openai`). */
  readonly provider: string;
  /** Whether this wire guards a request (its method and path, the query left out). */
  matches(method: string, path: string): boolean;
  /** The request, read; undefined when it is not one this wire can guard (it then passes through unchanged). */
  readRequest(body: unknown, options: ReadRequestOptions): WireRequest | undefined;
  /** A whole (not streamed) answer, read; undefined when it is not one (it then passes through unchanged). */
  readAnswer(body: unknown): WireAnswer | undefined;
  /**
   * The answer the app gets for a stopped turn: `final` (the provider's own answer with tools off, its
   * calls if any dropped) or, when there is none, `text` as the assistant's message; shaped as `first`
   * (the answer that was stopped: its id, its model).
   */
  stoppedAnswer(first: unknown, final: { readonly answer: unknown } | { readonly text: string }): unknown;
  /** The answer with secrets removed from its calls' arguments (opt-in); undefined when nothing changed. */
  redactAnswer(body: unknown): unknown | undefined;
  /**
   * A reader of a streamed answer. `after`: the reader of the answer this one continues (the last answer of
   * a stopped turn), whose stream the app is already reading.
   */
  streamReader(options: {
    readonly redactArguments: boolean;
    readonly maxHeldBytes: number;
    readonly after?: WireStreamReader;
  }): WireStreamReader;
  /** The gateway's own error, as this wire's error body. */
  errorBody(error: WireError): unknown;
}

/** How a wire reads a request: with `redactResults`, every tool result's secrets removed (by `redactText`). */
export interface ReadRequestOptions {
  readonly redactResults: boolean;
  /** `redactSecrets`, or one that remembers what it found clean (the gateway's). */
  readonly redactText?: (text: string) => string;
}
