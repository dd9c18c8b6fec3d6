import { anthropicMessagesWire } from './anthropic-messages/anthropic-messages-wire.js';
import { openAiChatWire } from './openai-chat/openai-chat-wire.js';
import { openAiResponsesWire } from './openai-responses/openai-responses-wire.js';
import type { GatewayWire } from './wire.js';

/**
 * The wire formats the gateway guards, each a `GatewayWire` in a folder of its own; a request none of them
 * matches passes through unchanged. A new wire is one more entry.
 */
export const WIRES: readonly GatewayWire[] = [openAiChatWire, anthropicMessagesWire, openAiResponsesWire];

/** How the gateway's own errors read on a path no wire guards (a 502 of a pass-through): OpenAI's shape. */
export const PASS_THROUGH_ERROR_BODY: GatewayWire['errorBody'] = openAiChatWire.errorBody;
