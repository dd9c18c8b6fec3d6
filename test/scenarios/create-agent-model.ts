import type { AssistantMessage } from '../../src/core/message.js';
import { assistantWithCalls, type CallSpec } from '../../src/testing/assistant-with-calls.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { type ConversationView, readConversation } from './read-conversation.js';

/** What a scenario's model decides in one round: call tools, or answer with text. */
export type AgentDecision =
  | { readonly calls: readonly Omit<CallSpec, 'id'>[]; readonly content?: string }
  | { readonly answer: string };

export interface AgentModelOptions {
  /** Called on every model call with tools enabled: reads the conversation, decides. */
  readonly decide: (view: ConversationView) => AgentDecision;
  /** The answer when tools are disabled (the last answer after a stop). */
  readonly lastWords: string;
}

/**
 * A `ScriptedModel` whose script is a function of the conversation, as a real model is: it reads the
 * current turn and decides. Call ids are `r<round>_<n>`, unique across the turn. With `tools: []` it
 * answers with `lastWords`, as a model with nothing to call would.
 */
export function createAgentModel({ decide, lastWords }: AgentModelOptions): ScriptedModel {
  return new ScriptedModel({
    script: (request): AssistantMessage => {
      if (request.tools.length === 0) return { role: 'assistant', content: lastWords };
      const view = readConversation(request.messages);
      const decision = decide(view);
      if ('answer' in decision) return { role: 'assistant', content: decision.answer };
      const calls = decision.calls.map((call, index) => ({ ...call, id: `r${view.round}_${index + 1}` }));
      return assistantWithCalls(calls, decision.content ?? '');
    },
  });
}
