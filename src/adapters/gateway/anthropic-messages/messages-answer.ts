import type { TokenUsage } from '../../../core/model.js';
import { redactSecrets } from '../../../redact/redact.js';
import type { WireAnswer, WireCall } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';
import { argumentsText } from './read-messages-request.js';

/** A message's `tool_use` calls, text, usage and stop reason; undefined when it has no `content` list. */
export function readMessage(body: unknown): WireAnswer | undefined {
  if (!isObject(body) || !Array.isArray(body.content)) return undefined;
  const calls: WireCall[] = [];
  let text = '';
  body.content.forEach((block, index) => {
    if (!isObject(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    if (block.type === 'tool_use')
      calls.push({
        id: typeof block.id === 'string' ? block.id : `(no id: call ${index + 1})`,
        name: typeof block.name === 'string' ? block.name : '',
        arguments: argumentsText(block.input),
      });
  });
  const usage = messageUsage(body.usage);
  const read = {
    calls,
    text,
    finishReasons: typeof body.stop_reason === 'string' ? [body.stop_reason] : [],
  };
  return usage === undefined ? read : { ...read, usage };
}

/** `usage.input_tokens` and `output_tokens` as the loop's usage; undefined when absent or odd. */
export function messageUsage(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value.input_tokens;
  const output = value.output_tokens;
  if (!isCount(input) || !isCount(output)) return undefined;
  return { inputTokens: input, outputTokens: output };
}

/**
 * The message the app gets for a stopped turn, with the stopped answer's id and model: the provider's
 * answer with tools off (its `tool_use` blocks, if any, dropped; its usage added to the stopped one's), or
 * `text` as its one text block. Either way `stop_reason` is `end_turn` and no `tool_use` is left in it,
 * so the app's next request carries no call without its result (which Anthropic refuses).
 */
export function stoppedMessage(
  first: unknown,
  final: { readonly answer: unknown } | { readonly text: string },
) {
  const base = isObject(first) ? first : {};
  if ('answer' in final && isObject(final.answer)) {
    const answer = final.answer;
    const content = Array.isArray(answer.content)
      ? answer.content.filter((block) => !(isObject(block) && block.type === 'tool_use'))
      : answer.content;
    return {
      ...answer,
      ...(base.id === undefined ? {} : { id: base.id }),
      content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      ...(answer.usage === undefined && base.usage === undefined
        ? {}
        : { usage: addMessageUsage(base.usage, answer.usage) }),
    };
  }
  const text = 'text' in final ? final.text : '';
  return {
    ...base,
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
  };
}

/** Two `usage` objects added, field by field (the numeric ones). */
export function addMessageUsage(a: unknown, b: unknown): Json {
  const left = isObject(a) ? a : {};
  const right = isObject(b) ? b : {};
  const sum: Json = { ...left, ...right };
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ]) {
    const x = left[key];
    const y = right[key];
    if (typeof x === 'number' || typeof y === 'number')
      sum[key] = (typeof x === 'number' ? x : 0) + (typeof y === 'number' ? y : 0);
  }
  return sum;
}

/** The message with secrets removed from its calls' `input`; undefined when there were none. */
export function redactMessage(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.content)) return undefined;
  let changed = false;
  const content = body.content.map((block) => {
    if (!isObject(block) || block.type !== 'tool_use') return block;
    const input = redactInput(block.input);
    if (input === undefined) return block;
    changed = true;
    return { ...block, input };
  });
  return changed ? { ...body, content } : undefined;
}

/** A call's `input` with its secrets removed (as JSON text, which stays JSON); undefined when there were none. */
export function redactInput(input: unknown): unknown {
  const text = argumentsText(input);
  const redacted = redactSecrets(text);
  if (redacted === text) return undefined;
  try {
    return JSON.parse(redacted);
  } catch {
    return { redacted };
  }
}

/** The gateway's own error in Anthropic's shape (`{ type: 'error', error: { type, message } }`). */
export function messagesErrorBody({
  message,
  status,
}: {
  readonly message: string;
  readonly status: number;
  readonly code: string;
}) {
  const type =
    status === 413
      ? 'request_too_large'
      : status === 504
        ? 'timeout_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error';
  return { type: 'error', error: { type, message: `toolwarden gateway: ${message}` } };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
