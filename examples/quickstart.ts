// The README's quickstart, as a file the typecheck and the tests run: a tool, the chain, then the loop.
import {
  type AssistantMessage,
  createToolRuntime,
  defineTool,
  type LoopOutcome,
  loopGuard,
  type Message,
  maxRoundTrips,
  runToolLoop,
  type ToolEvent,
} from '../src/index.js';
import { assistantWithCalls, ScriptedModel } from '../src/testing/index.js';

/** A stand-in for your weather service. */
const weather = {
  current: async (city: string, { signal }: { signal: AbortSignal }) => {
    signal.throwIfAborted();
    return { city, celsius: 21 };
  },
};

export const tools = [
  defineTool({
    name: 'getWeather',
    description: 'Current weather for a city.',
    input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    output: {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    },
    effect: 'read',
    timeoutMs: 5_000,
    execute: async ({ city }: { city: string }, { signal }) => weather.current(city, { signal }),
  }),
];

/** Tools and a policy, checked once: build it at startup and share it. */
export const runtime = createToolRuntime({ tools, timeoutMs: 10_000 });

/** One model response's tool calls, through the chain. */
export async function runChain(log: (event: ToolEvent) => void) {
  const messages: Message[] = [{ role: 'user', content: 'Weather in Rome?' }];
  // The model's answer: its tool calls' `arguments` are the JSON text the model wrote.
  const response: AssistantMessage = {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'getWeather', arguments: '{"city":"Rome"}' }],
  };
  return runtime.executeToolCalls({ messages, response, onEvent: log });
}

/** One call, with no history: what an MCP server answers with. */
export async function runOneCall() {
  return runtime.executeToolCall({ name: 'getWeather', arguments: { city: 'Rome' } });
}

/** The whole loop, on a scripted model (swap in a provider's model in real code). */
export async function runLoop(): Promise<string> {
  const model = new ScriptedModel({
    script: [
      assistantWithCalls([{ name: 'getWeather', arguments: { city: 'Rome' } }]),
      { role: 'assistant', content: 'It is 21 °C in Rome.' },
    ],
  });
  const outcome: LoopOutcome = await runToolLoop({
    model,
    messages: [{ role: 'user', content: 'Weather in Rome?' }],
    runtime,
    stopWhen: [maxRoundTrips(20), loopGuard({ repeatLimit: 3 })],
    finalAnswer: true,
  });
  switch (outcome.type) {
    case 'completed':
      return outcome.text;
    case 'stopped':
      return `${outcome.reason}: ${outcome.text}`;
    case 'interrupted':
      return `waiting for a decision on ${outcome.pending.map((call) => call.toolName).join(', ')}`;
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
