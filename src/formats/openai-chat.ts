// The parts of OpenAI's chat completions wire format that tool calling uses, as the official `openai`
// SDK types them (`ChatCompletionMessageParam`, `ChatCompletion`), written structurally so toolwarden
// does not depend on the SDK.

export interface OpenAiChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export type OpenAiChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly OpenAiChatToolCall[];
    }
  | {
      readonly role: 'tool';
      readonly tool_call_id: string;
      readonly content: string | readonly { readonly type: 'text'; readonly text: string }[];
    };

/** A chat completion as the API answers it (the fields a tool loop reads). */
export interface OpenAiChatCompletion {
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
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null;
}
