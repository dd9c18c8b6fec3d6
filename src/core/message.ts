/**
 * The neutral message model. Provider formats map to and from it; the core knows no provider's shapes.
 */

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** A person's message. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

/** One tool call as the model produced it: `arguments` is the raw text, not yet parsed or trusted. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The model's answer: text, and the tool calls it asks for. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls?: readonly ToolCall[];
}

/** The answer to one tool call, as the model reads it. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  /** The tool's name as the model asked for it (sanitized when it is not a legal name). */
  readonly name: string;
  /** What the model sees: the serialized result, or a short redacted error. */
  readonly content: string;
  readonly isError: boolean;
  /** Stable code of the error the content reports, when `isError`. */
  readonly errorCode?: string;
  /**
   * A note from the runtime beside the result (the loop guard's: what repeated, what to do instead). The
   * content stays the tool's own; a model adapter shows the note after it (a second text part where the
   * provider has parts).
   */
  readonly note?: string;
}

/** One message of a conversation: system, user, assistant or tool. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
