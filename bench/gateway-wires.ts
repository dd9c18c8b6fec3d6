// The requests of the gateway bench, one per wire: a 20-message history (an instruction, the question, nine
// tool rounds of a call and its result), as each wire writes it.

export type BenchWire = 'chat' | 'anthropic' | 'responses';

export const BENCH_WIRES: readonly BenchWire[] = ['chat', 'anthropic', 'responses'];

export const PATHS: Record<BenchWire, string> = {
  chat: '/v1/chat/completions',
  anthropic: '/v1/messages',
  responses: '/v1/responses',
};

const SYSTEM = 'You answer questions about orders. Use the tools.';
const ROUNDS = 9;

function question(conversation: number): string {
  return `What happened to order A-${conversation}?`;
}

function result(conversation: number, round: number): string {
  return JSON.stringify({
    order: `A-${conversation}`,
    page: round,
    events: ['created', 'paid', 'packed'],
    note: 'x'.repeat(200),
  });
}

function args(conversation: number, round: number) {
  return { order: `A-${conversation}`, page: round };
}

function chatMessages(conversation: number): unknown[] {
  const messages: unknown[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: question(conversation) },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const id = `call_${conversation}_${round}`;
    const fn = { name: `step${round}`, arguments: JSON.stringify(args(conversation, round)) };
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: fn }] });
    messages.push({ role: 'tool', tool_call_id: id, content: result(conversation, round) });
  }
  return messages;
}

function anthropicMessages(conversation: number): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: question(conversation) }];
  for (let round = 0; round < ROUNDS; round++) {
    const id = `toolu_${conversation}_${round}`;
    const use = { type: 'tool_use', id, name: `step${round}`, input: args(conversation, round) };
    messages.push({ role: 'assistant', content: [use] });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: result(conversation, round) }],
    });
  }
  return messages;
}

function responsesInput(conversation: number): unknown[] {
  const items: unknown[] = [
    { role: 'developer', content: SYSTEM },
    { role: 'user', content: question(conversation) },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const id = `call_${conversation}_${round}`;
    const call = { name: `step${round}`, arguments: JSON.stringify(args(conversation, round)) };
    items.push({ type: 'function_call', call_id: id, ...call });
    items.push({ type: 'function_call_output', call_id: id, output: result(conversation, round) });
  }
  return items;
}

const names = Array.from({ length: ROUNDS }, (_, round) => `step${round}`);

/** The request's body: conversation `conversation`'s history on `wire`, streamed or not. */
export function benchBody(wire: BenchWire, conversation: number, stream: boolean): string {
  const streamed = stream ? { stream: true } : {};
  switch (wire) {
    case 'chat':
      return JSON.stringify({
        model: 'fake-model',
        messages: chatMessages(conversation),
        tools: names.map((name) => ({
          type: 'function',
          function: { name, parameters: { type: 'object' } },
        })),
        ...streamed,
      });
    case 'anthropic':
      return JSON.stringify({
        model: 'fake-model',
        max_tokens: 1024,
        system: SYSTEM,
        messages: anthropicMessages(conversation),
        tools: names.map((name) => ({ name, input_schema: { type: 'object' } })),
        ...streamed,
      });
    case 'responses':
      return JSON.stringify({
        model: 'fake-model',
        input: responsesInput(conversation),
        tools: names.map((name) => ({ type: 'function', name, parameters: { type: 'object' } })),
        ...streamed,
      });
    default: {
      const never: never = wire;
      return never;
    }
  }
}

/** The headers each wire's clients send (their key, Anthropic's version). */
export function benchHeaders(wire: BenchWire): Record<string, string> {
  return wire === 'anthropic'
    ? { 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' }
    : { authorization: 'Bearer bench' };
}
