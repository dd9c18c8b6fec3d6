import { answerToolCall } from './answer-tool-call.js';
import type { McpConversationCall, McpProxyConversation } from './mcp-proxy.js';
import type { ProxyCallContext } from './proxy-call.js';

type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js');

/**
 * One `tools/call` of a conversation, answered as a session's (`answerToolCall`): the confirmation is the
 * request's own answer, or, when it carries none, the call stops there (before anything ran or was
 * audited) and is answered `ask`.
 */
export async function conversationCall(
  context: Omit<ProxyCallContext, 'confirm'>,
  types: SdkTypes,
  name: string,
  args: unknown,
  options: Parameters<McpProxyConversation['call']>[2],
): Promise<McpConversationCall> {
  let asked: string | undefined;
  const confirm: ProxyCallContext['confirm'] = async (message) => {
    const answer = options.answer(message);
    if (answer !== 'ask') return answer;
    asked = message;
    throw new Error('The user is to be asked first.');
  };
  const result = await answerToolCall({ ...context, confirm }, types, name, args, options.signal);
  return asked === undefined ? { kind: 'result', result } : { kind: 'ask', message: asked };
}
