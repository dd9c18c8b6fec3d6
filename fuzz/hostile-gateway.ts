import fc from 'fast-check';
import { type Mutation, mutation } from './hostile-state.js';
import { record } from './plain-record.js';
import type { GatewayWireName } from './targets.js';

/**
 * What the gateway reads from the wire, as plain data, on each of its wires: a chat completions request (a valid one with tool
 * rounds, a secret in a result, mutated, its text perhaps cut short) and a provider's stream (chunks of a
 * chat completion, valid or not, in any order, split anywhere, perhaps cut off).
 */
export type GatewayCase =
  | {
      readonly kind: 'request';
      readonly wire: GatewayWireName;
      readonly mutations: readonly Mutation[];
      readonly cut: number | undefined;
      /** The session header, as an app may send it. */
      readonly header: string | undefined;
      readonly redact: boolean;
    }
  | {
      readonly kind: 'stream';
      readonly wire: GatewayWireName;
      readonly parts: readonly StreamPart[];
      /** Where the stream's text is split into the chunks the gateway reads (indexes into it). */
      readonly splits: readonly number[];
      /** The stream ends after this many characters (cut off), when set. */
      readonly cutAt: number | undefined;
      /** What the gateway decides when the answer is complete. */
      readonly verdict: 'release' | 'stop';
      readonly redactArguments: boolean;
    };

/** One event of a provider's stream. */
export type StreamPart =
  | { readonly kind: 'role' }
  | { readonly kind: 'text'; readonly text: string; readonly choice: number }
  | {
      readonly kind: 'call-start';
      readonly index: number;
      readonly id: string | undefined;
      readonly name: string;
    }
  | { readonly kind: 'call-args'; readonly index: number; readonly text: string }
  | { readonly kind: 'text-and-call'; readonly text: string; readonly index: number }
  | { readonly kind: 'finish'; readonly reason: string; readonly choice: number }
  | { readonly kind: 'usage' }
  | { readonly kind: 'done' }
  | { readonly kind: 'comment' }
  | { readonly kind: 'garbage'; readonly text: string }
  | { readonly kind: 'no-choices' };

/** A valid request with two tool rounds, a secret in one result, and fields the gateway does not know. */
export const BASE_REQUEST = {
  model: 'fake-model',
  stream: false,
  user: 'ann',
  metadata: { session_id: 's-1' },
  temperature: 0.2,
  tools: [{ type: 'function', function: { name: 'getStatus', parameters: { type: 'object' } } }],
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Status of A-1?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'getStatus', arguments: '{"id":"A-1"}' } },
        { id: 'c2', type: 'function', function: { name: 'getOwner', arguments: '{"id":"A-1"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"state":"PENDING"}' },
    { role: 'tool', tool_call_id: 'c2', content: 'token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c3', type: 'function', function: { name: 'getStatus', arguments: '{"id":"A-1"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c3', content: [{ type: 'text', text: '{"state":"PENDING"}' }] },
  ],
};

/** The same conversation on Anthropic's wire: tool_use blocks, tool_result blocks (one an error), a secret. */
export const BASE_ANTHROPIC_REQUEST = {
  model: 'claude',
  max_tokens: 100,
  system: [{ type: 'text', text: 'You are helpful.' }],
  metadata: { user_id: 'ann' },
  tools: [{ name: 'getStatus', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Status of A-1?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'c1', name: 'getStatus', input: { id: 'A-1' } },
        { type: 'tool_use', id: 'c2', name: 'getOwner', input: { id: 'A-1' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1', content: '{"state":"PENDING"}' },
        {
          type: 'tool_result',
          tool_use_id: 'c2',
          is_error: true,
          content: [{ type: 'text', text: 'token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD' }],
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'getStatus', input: { id: 'A-1' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: '{"state":"PENDING"}' }] },
  ],
};

/** The same conversation on the Responses wire, whole history (a mutation may add `previous_response_id`). */
export const BASE_RESPONSES_REQUEST = {
  model: 'gpt',
  instructions: 'You are helpful.',
  store: false,
  tools: [{ type: 'function', name: 'getStatus', parameters: { type: 'object' } }],
  input: [
    { role: 'user', content: 'Status of A-1?' },
    { type: 'function_call', call_id: 'c1', name: 'getStatus', arguments: '{"id":"A-1"}' },
    { type: 'function_call', call_id: 'c2', name: 'getOwner', arguments: '{"id":"A-1"}' },
    { type: 'function_call_output', call_id: 'c1', output: '{"state":"PENDING"}' },
    {
      type: 'function_call_output',
      call_id: 'c2',
      output: 'token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD',
    },
    { type: 'function_call', call_id: 'c3', name: 'getStatus', arguments: '{"id":"A-1"}' },
    {
      type: 'function_call_output',
      call_id: 'c3',
      output: [{ type: 'input_text', text: '{"state":"PENDING"}' }],
    },
  ],
};

const wireName = fc.constantFrom<GatewayWireName>('chat', 'anthropic', 'responses');

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('{"id":', '"A-1"}', '\\u00e9', '\n\n', 'data: x'),
);

function streamPart(): fc.Arbitrary<StreamPart> {
  const index = fc.nat({ max: 3 });
  return fc.oneof(
    { weight: 1, arbitrary: record({ kind: fc.constant('role' as const) }) },
    {
      weight: 4,
      arbitrary: record({ kind: fc.constant('text' as const), text, choice: fc.nat({ max: 1 }) }),
    },
    {
      weight: 3,
      arbitrary: record({
        kind: fc.constant('call-start' as const),
        index,
        id: fc.option(fc.constantFrom('call_a', 'call_b', 'call_a '), { nil: undefined }),
        name: fc.constantFrom('getStatus', 'put', ''),
      }),
    },
    { weight: 4, arbitrary: record({ kind: fc.constant('call-args' as const), index, text }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('text-and-call' as const), text, index }) },
    {
      weight: 2,
      arbitrary: record({
        kind: fc.constant('finish' as const),
        reason: fc.constantFrom('tool_calls', 'stop', 'length'),
        choice: fc.nat({ max: 1 }),
      }),
    },
    { weight: 1, arbitrary: record({ kind: fc.constant('usage' as const) }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('done' as const) }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('comment' as const) }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('garbage' as const), text }) },
    { weight: 1, arbitrary: record({ kind: fc.constant('no-choices' as const) }) },
  );
}

export function gatewayCase(): fc.Arbitrary<GatewayCase> {
  return fc.oneof(
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('request' as const),
        wire: wireName,
        mutations: fc.array(mutation(), { minLength: 0, maxLength: 3 }),
        cut: fc.option(fc.nat({ max: 1_500 }), { nil: undefined, freq: 6 }),
        header: fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('x'.repeat(300))), {
          nil: undefined,
        }),
        redact: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: record({
        kind: fc.constant('stream' as const),
        wire: wireName,
        parts: fc.array(streamPart(), { maxLength: 24 }),
        splits: fc.array(fc.nat({ max: 3_000 }), { maxLength: 8 }),
        cutAt: fc.option(fc.nat({ max: 3_000 }), { nil: undefined, freq: 4 }),
        verdict: fc.constantFrom('release' as const, 'stop' as const),
        redactArguments: fc.boolean(),
      }),
    },
  );
}

/** The stream's text on `wire`, as a provider would send it. */
export function wireStreamText(parts: readonly StreamPart[], wire: GatewayWireName): string {
  switch (wire) {
    case 'chat':
      return streamText(parts);
    case 'anthropic':
      return anthropicStreamText(parts);
    case 'responses':
      return responsesStreamText(parts);
    default: {
      const never: never = wire;
      return never;
    }
  }
}

/** The parts as Anthropic's events: a call is a `tool_use` block, its arguments `input_json_delta`s. */
function anthropicStreamText(parts: readonly StreamPart[]): string {
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return parts
    .map((part) => {
      switch (part.kind) {
        case 'role':
          return ev('message_start', {
            message: { id: 'msg_f', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } },
          });
        case 'text':
          return ev('content_block_delta', {
            index: part.choice,
            delta: { type: 'text_delta', text: part.text },
          });
        case 'call-start':
          return ev('content_block_start', {
            index: part.index,
            content_block: {
              type: 'tool_use',
              ...(part.id === undefined ? {} : { id: part.id }),
              name: part.name,
              input: {},
            },
          });
        case 'call-args':
          return ev('content_block_delta', {
            index: part.index,
            delta: { type: 'input_json_delta', partial_json: part.text },
          });
        case 'text-and-call':
          return ev('content_block_start', {
            index: part.index,
            content_block: { type: 'text', text: part.text },
          });
        case 'finish':
          return ev('message_delta', { delta: { stop_reason: part.reason }, usage: { output_tokens: 2 } });
        case 'usage':
          return ev('content_block_stop', { index: 0 });
        case 'done':
          return ev('message_stop', {});
        case 'comment':
          return ev('ping', {});
        case 'garbage':
          return `event: content_block_delta\ndata: ${part.text}\n\n`;
        case 'no-choices':
          return ev('content_block_stop', { index: 1 });
        default: {
          const never: never = part;
          return never;
        }
      }
    })
    .join('');
}

/** The parts as Responses events: a call is a `function_call` item, its arguments `…arguments.delta`s. */
function responsesStreamText(parts: readonly StreamPart[]): string {
  let sequence = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence++ })}\n\n`;
  const response = (status: string) => ({ id: 'resp_f', object: 'response', status, output: [] });
  return parts
    .map((part) => {
      switch (part.kind) {
        case 'role':
          return ev('response.created', { response: response('in_progress') });
        case 'text':
          return ev('response.output_text.delta', {
            output_index: part.choice,
            content_index: 0,
            delta: part.text,
          });
        case 'call-start':
          return ev('response.output_item.added', {
            output_index: part.index,
            item: {
              type: 'function_call',
              ...(part.id === undefined ? {} : { call_id: part.id }),
              name: part.name,
              arguments: '',
            },
          });
        case 'call-args':
          return ev('response.function_call_arguments.delta', { output_index: part.index, delta: part.text });
        case 'text-and-call':
          return ev('response.output_item.added', {
            output_index: part.index,
            item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: part.text }] },
          });
        case 'finish':
          return ev(part.reason === 'length' ? 'response.incomplete' : 'response.completed', {
            response: response(part.reason === 'length' ? 'incomplete' : 'completed'),
          });
        case 'usage':
          return ev('response.function_call_arguments.done', { output_index: 0, arguments: '{}' });
        case 'done':
          return ev('response.output_item.done', {
            output_index: 0,
            item: { type: 'function_call', call_id: 'call_a', name: 'getStatus', arguments: '{"id":"A-1"}' },
          });
        case 'comment':
          return ': keep-alive\n\n';
        case 'garbage':
          return `event: response.output_text.delta\ndata: ${part.text}\n\n`;
        case 'no-choices':
          return ev('response.in_progress', { response: response('in_progress') });
        default: {
          const never: never = part;
          return never;
        }
      }
    })
    .join('');
}

/** The stream's text, as a provider would send it. */
export function streamText(parts: readonly StreamPart[]): string {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...extra })}\n\n`;
  const choice = (delta: unknown, index = 0, finish: string | null = null) => ({
    index,
    delta,
    finish_reason: finish,
  });
  return parts
    .map((part) => {
      switch (part.kind) {
        case 'role':
          return chunk([choice({ role: 'assistant', content: '' })]);
        case 'text':
          return chunk([choice({ content: part.text }, part.choice)]);
        case 'call-start':
          return chunk([
            choice({
              tool_calls: [
                {
                  index: part.index,
                  ...(part.id === undefined ? {} : { id: part.id }),
                  type: 'function',
                  function: { name: part.name, arguments: '' },
                },
              ],
            }),
          ]);
        case 'call-args':
          return chunk([choice({ tool_calls: [{ index: part.index, function: { arguments: part.text } }] })]);
        case 'text-and-call':
          return chunk([
            choice({
              content: part.text,
              tool_calls: [{ index: part.index, function: { arguments: '{}' } }],
            }),
          ]);
        case 'finish':
          return chunk([choice({}, part.choice, part.reason)]);
        case 'usage':
          return chunk([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
        case 'done':
          return 'data: [DONE]\n\n';
        case 'comment':
          return ': keep-alive\n\n';
        case 'garbage':
          return `data: ${part.text}\n\n`;
        case 'no-choices':
          return chunk([]);
        default: {
          const never: never = part;
          return never;
        }
      }
    })
    .join('');
}
