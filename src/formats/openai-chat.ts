// The parts of OpenAI's chat completions wire format that tool calling uses, as the official `openai`
// SDK types them (`ChatCompletionMessageParam`, `ChatCompletion`), written structurally so toolwarden
// does not depend on the SDK. The messages are mutable types, so they are assignable to the SDK's params.

/** One tool call of an assistant message, as OpenAI's chat completions carry it. */
export interface OpenAiChatToolCall {
  /** The call's id. */
  id: string;
  /** Always `function`. */
  type: 'function';
  /** The tool's name and its arguments as JSON text. */
  function: { name: string; arguments: string };
}

/** A chat completions message: system, user, assistant (with its tool calls) or tool result. */
export type OpenAiChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string | { type: 'text'; text: string }[] };

/** A chat completion as the API answers it (the fields a tool loop reads). */
export interface OpenAiChatCompletion {
  /** The answers; a tool loop reads the first. */
  readonly choices: readonly {
    readonly message: {
      readonly content?: string | null;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly type?: string;
        readonly function?: { readonly name?: string; readonly arguments?: string };
      }[];
      readonly refusal?: string | null;
    };
    readonly finish_reason?: string | null;
  }[];
  /** Tokens in and out. */
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null;
}
