import type { TokenUsage } from '../../../core/model.js';
import { redactSecrets } from '../../../redact/redact.js';
import type { WireAnswer, WireCall } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';

/** A response's `function_call` items, its text, usage, status and id; undefined when it has no `output` list. */
export function readResponse(body: unknown): WireAnswer | undefined {
  if (!isObject(body) || !Array.isArray(body.output)) return undefined;
  const calls: WireCall[] = [];
  let text = '';
  body.output.forEach((item, index) => {
    if (!isObject(item)) return;
    if (item.type === 'function_call') calls.push(responseCall(item, index));
    if (item.type === 'message') text += messageText(item);
  });
  const usage = responseUsage(body.usage);
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    calls,
    text,
    finishReasons: typeof body.status === 'string' ? [body.status] : [],
    ...(usage === undefined ? {} : { usage }),
  };
}

/** One `function_call` item as a call (`call_id` is what its output names). */
export function responseCall(item: Json, index: number): WireCall {
  return {
    id: typeof item.call_id === 'string' ? item.call_id : `(no id: call ${index + 1})`,
    name: typeof item.name === 'string' ? item.name : '',
    arguments:
      typeof item.arguments === 'string' ? item.arguments : (JSON.stringify(item.arguments ?? {}) ?? '{}'),
  };
}

/** A message item's `output_text` parts joined. */
export function messageText(item: Json): string {
  if (!Array.isArray(item.content)) return '';
  return item.content
    .map((part) =>
      isObject(part) && part.type === 'output_text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

/** `usage.input_tokens` and `output_tokens`; undefined when absent or odd. */
export function responseUsage(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value.input_tokens;
  const output = value.output_tokens;
  if (!isCount(input) || !isCount(output)) return undefined;
  return { inputTokens: input, outputTokens: output };
}

/** An assistant message item holding `text`, as the Responses API writes one. */
export function messageItem(text: string, id: string) {
  return {
    id,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

/**
 * The response the app gets for a stopped turn. The provider's answer with tools off keeps its own id (the
 * app's next `previous_response_id` then names a response with no call left unanswered), its
 * `function_call` items dropped, usage added to the stopped one's. Else `text` as one message item, with
 * the stopped response's id.
 */
export function stoppedResponse(
  first: unknown,
  final: { readonly answer: unknown } | { readonly text: string },
) {
  const base = isObject(first) ? first : {};
  if ('answer' in final && isObject(final.answer)) {
    const answer = final.answer;
    const output = Array.isArray(answer.output)
      ? answer.output.filter((item) => !(isObject(item) && item.type === 'function_call'))
      : answer.output;
    return {
      ...answer,
      status: 'completed',
      output,
      ...(answer.usage === undefined && base.usage === undefined
        ? {}
        : { usage: addResponseUsage(base.usage, answer.usage) }),
    };
  }
  const text = 'text' in final ? final.text : '';
  const output = Array.isArray(base.output)
    ? base.output.filter((item) => !(isObject(item) && item.type === 'function_call'))
    : [];
  return {
    ...base,
    status: 'completed',
    output: [...output, messageItem(text, `msg_toolwarden_${String(base.id ?? 'stop')}`)],
  };
}

/** Two `usage` objects added (the token counts). */
export function addResponseUsage(a: unknown, b: unknown): Json {
  const left = isObject(a) ? a : {};
  const right = isObject(b) ? b : {};
  const sum: Json = { ...left, ...right };
  for (const key of ['input_tokens', 'output_tokens', 'total_tokens']) {
    const x = left[key];
    const y = right[key];
    if (typeof x === 'number' || typeof y === 'number')
      sum[key] = (typeof x === 'number' ? x : 0) + (typeof y === 'number' ? y : 0);
  }
  return sum;
}

/** The response with secrets removed from its calls' arguments; undefined when there were none. */
export function redactResponse(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.output)) return undefined;
  let changed = false;
  const output = body.output.map((item) => {
    const redacted = redactItem(item);
    if (redacted !== item) changed = true;
    return redacted;
  });
  return changed ? { ...body, output } : undefined;
}

/** A `function_call` item with secrets removed from its arguments; the same object when there were none. */
export function redactItem(item: unknown): unknown {
  if (!isObject(item) || item.type !== 'function_call' || typeof item.arguments !== 'string') return item;
  const redacted = redactSecrets(item.arguments);
  return redacted === item.arguments ? item : { ...item, arguments: redacted };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
