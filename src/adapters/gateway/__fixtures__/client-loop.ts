// An app's tool loop the way Spring AI's ToolCallingAdvisor (and most hand-written ones) run it, over the
// real `openai` SDK: ask, run every call the answer asks for, send the results back, until an answer has
// no calls or the cap is reached. Against the gateway, with no change but the base URL.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

export interface LoopRun {
  /** Model calls the app made. */
  readonly rounds: number;
  /** Tool calls the app ran. */
  readonly executions: number;
  /** The last answer's text; undefined when the cap was reached. */
  readonly final: string | undefined;
  /** The response headers of the last answer (not streamed). */
  readonly lastHeaders: Headers | undefined;
  readonly messages: readonly ChatCompletionMessageParam[];
}

export function toolsOf(...names: readonly string[]): ChatCompletionTool[] {
  return names.map((name) => ({
    type: 'function',
    function: { name, description: `the ${name} tool`, parameters: { type: 'object', properties: {} } },
  }));
}

export async function runClientLoop(options: {
  readonly baseURL: string;
  readonly tools: readonly string[];
  readonly run: (name: string, args: string) => string;
  readonly stream?: boolean;
  readonly cap?: number;
  readonly ask?: string;
  readonly headers?: Record<string, string>;
  readonly apiKey?: string;
  /** The conversation so far (an earlier turn's messages): the question is asked after it. */
  readonly history?: readonly ChatCompletionMessageParam[];
  /** The SDK's fetch (a load balancer in front of several gateways). */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}): Promise<LoopRun> {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? 'app-key',
    maxRetries: 0,
    defaultHeaders: options.headers ?? {},
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const messages: ChatCompletionMessageParam[] = [
    ...(options.history ?? []),
    { role: 'user', content: options.ask ?? 'What is the status of order A-1?' },
  ];
  const tools = toolsOf(...options.tools);
  let executions = 0;
  let lastHeaders: Headers | undefined;
  const cap = options.cap ?? 20;
  for (let round = 1; round <= cap; round++) {
    let message: OpenAI.Chat.Completions.ChatCompletionMessage | undefined;
    if (options.stream === true) {
      const stream = client.chat.completions.stream({ model: 'fake-model', messages, tools });
      message = (await stream.finalChatCompletion()).choices[0]?.message;
    } else {
      const { data, response } = await client.chat.completions
        .create({ model: 'fake-model', messages, tools })
        .withResponse();
      lastHeaders = response.headers;
      message = data.choices[0]?.message;
    }
    if (message === undefined) throw new Error('no choice in the answer');
    const calls = message.tool_calls ?? [];
    messages.push({
      role: 'assistant',
      content: message.content ?? null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    });
    if (calls.length === 0)
      return { rounds: round, executions, final: message.content ?? '', lastHeaders, messages };
    for (const call of calls) {
      if (call.type !== 'function') continue;
      executions++;
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: options.run(call.function.name, call.function.arguments),
      });
    }
  }
  return { rounds: cap, executions, final: undefined, lastHeaders, messages };
}
