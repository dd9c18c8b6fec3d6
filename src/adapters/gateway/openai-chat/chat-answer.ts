import type { TokenUsage } from '../../../core/model.js';
import { redactSecrets } from '../../../redact/redact.js';
import type { WireAnswer, WireCall } from '../wire.js';
import { isObject, type Json } from '../wire-json.js';

/** A chat completion's calls (every choice's), usage and finish reasons; undefined when it has no `choices` list. */
export function readChatCompletion(body: unknown): WireAnswer | undefined {
  if (!isObject(body) || !Array.isArray(body.choices)) return undefined;
  const calls: WireCall[] = [];
  const finishReasons: string[] = [];
  let text: string | undefined;
  for (const choice of body.choices) {
    if (!isObject(choice)) continue;
    if (text === undefined && isObject(choice.message) && typeof choice.message.content === 'string')
      text = choice.message.content;
    if (typeof choice.finish_reason === 'string') finishReasons.push(choice.finish_reason);
    const message = choice.message;
    if (!isObject(message) || !Array.isArray(message.tool_calls)) continue;
    message.tool_calls.forEach((call, index) => {
      const read = completionCall(call, index);
      if (read !== undefined) calls.push(read);
    });
  }
  const usage = usageOf(body.usage);
  const read = { calls, text: text ?? '', finishReasons };
  return usage === undefined ? read : { ...read, usage };
}

/** One call of an answer; a call without a name is still one (it asks for something), named as it came. */
function completionCall(value: unknown, index: number): WireCall | undefined {
  if (!isObject(value)) return undefined;
  const fn = isObject(value.function) ? value.function : {};
  return {
    id: typeof value.id === 'string' ? value.id : `(no id: call ${index + 1})`,
    name: typeof fn.name === 'string' ? fn.name : '',
    arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
  };
}

/** `usage.prompt_tokens` and `completion_tokens` as the loop's usage; undefined when absent or odd. */
export function usageOf(value: unknown): TokenUsage | undefined {
  if (!isObject(value)) return undefined;
  const input = value.prompt_tokens;
  const output = value.completion_tokens;
  if (!isCount(input) || !isCount(output)) return undefined;
  return { inputTokens: input, outputTokens: output };
}

/**
 * The completion the app gets for a stopped turn, with the stopped answer's id and model: the provider's
 * answer with tools off (its usage added to the stopped one's: both were paid for), or `text` as the
 * assistant's message. Either way `finish_reason` is `stop` and no call is left in it.
 */
export function stoppedCompletion(
  first: unknown,
  final: { readonly answer: unknown } | { readonly text: string },
) {
  const base = isObject(first) ? first : {};
  if ('answer' in final && isObject(final.answer)) {
    const answer = final.answer;
    const choices = Array.isArray(answer.choices) ? answer.choices.map(withoutCalls) : answer.choices;
    return {
      ...answer,
      ...(base.id === undefined ? {} : { id: base.id }),
      choices,
      ...(answer.usage === undefined && base.usage === undefined
        ? {}
        : { usage: addUsage(base.usage, answer.usage) }),
    };
  }
  const text = 'text' in final ? final.text : '';
  return {
    ...base,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
  };
}

function withoutCalls(choice: unknown): unknown {
  if (!isObject(choice) || !isObject(choice.message)) return choice;
  const { tool_calls: _calls, ...message } = choice.message;
  return { ...choice, message, finish_reason: 'stop' };
}

/** Two `usage` objects added, field by field (the numeric ones). */
export function addUsage(a: unknown, b: unknown): Json {
  const left = isObject(a) ? a : {};
  const right = isObject(b) ? b : {};
  const sum: Json = { ...left, ...right };
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens']) {
    const x = left[key];
    const y = right[key];
    if (typeof x === 'number' || typeof y === 'number')
      sum[key] = (typeof x === 'number' ? x : 0) + (typeof y === 'number' ? y : 0);
  }
  return sum;
}

/** The completion with secrets removed from its calls' arguments; undefined when there were none. */
export function redactCompletion(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.choices)) return undefined;
  let changed = false;
  const choices = body.choices.map((choice) => {
    if (!isObject(choice) || !isObject(choice.message) || !Array.isArray(choice.message.tool_calls))
      return choice;
    const calls = choice.message.tool_calls.map((call) => {
      const redacted = redactCall(call);
      if (redacted !== call) changed = true;
      return redacted;
    });
    return { ...choice, message: { ...choice.message, tool_calls: calls } };
  });
  return changed ? { ...body, choices } : undefined;
}

/** A call with secrets removed from its arguments; the same object when there were none. */
export function redactCall(call: unknown): unknown {
  if (!isObject(call) || !isObject(call.function) || typeof call.function.arguments !== 'string') return call;
  const redacted = redactSecrets(call.function.arguments);
  return redacted === call.function.arguments
    ? call
    : { ...call, function: { ...call.function, arguments: redacted } };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
