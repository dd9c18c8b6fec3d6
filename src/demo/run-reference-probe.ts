import { createToolRuntime } from '../chain/runtime.js';
import { ToolwardenError } from '../core/errors/toolwarden-error.js';
import type { AssistantMessage, Message } from '../core/message.js';
import type { ToolExecutionResult } from '../core/tool-execution-result.js';
import { assistantWithCalls, type CallSpec } from '../testing/assistant-with-calls.js';
import { createToolRegistry } from '../tools/tool-registry.js';
import { createReferenceTools } from './reference-tools.js';

export type Fact = readonly [key: string, value: string];

const USER: Message = { role: 'user', content: 'Run the reference experiment.' };

/**
 * The Spring AI 2.0.1 reference experiment, replayed against toolwarden: hand-built model responses go
 * straight into the chain, and every fact is read off what the chain returned or threw.
 */
export async function runReferenceProbe(): Promise<Fact[]> {
  const facts: Fact[] = [];
  const fact = (key: string, value: unknown) =>
    facts.push([key, typeof value === 'string' ? value : String(value)]);
  const { tools, counters } = createReferenceTools();
  const registry = createToolRegistry(tools);
  const runtime = createToolRuntime({ tools: registry });
  const run = (response: AssistantMessage, options: { limits?: { total?: number } } = {}) =>
    (options.limits === undefined
      ? runtime
      : createToolRuntime({ tools: registry, ...options })
    ).executeToolCalls({
      messages: [USER],
      response,
    });
  const one = (spec: CallSpec) => run(assistantWithCalls([spec]));
  const lastContent = (result: ToolExecutionResult) => result.messages.at(-1)?.content ?? '';

  fact('registered-tools', registry.names().join(','));

  const success = await one({ name: 'echo', arguments: { text: 'spring ai' } });
  fact('success-tool', success.results[0]?.toolName);
  fact('success-result', lastContent(success));
  fact('success-history', `[${success.messages.map((m) => m.role).join(', ')}]`);

  fact('no-tool-call', await describeFailure(run({ role: 'assistant', content: 'No tools needed.' })));
  fact('unknown-tool', lastContent(await one({ name: 'missingTool', arguments: {} })));
  fact(
    'unknown-tool-throw',
    await describeFailure(
      createToolRuntime({ tools: registry, unknownTool: 'throw' }).executeToolCalls({
        messages: [USER],
        response: assistantWithCalls([{ name: 'missingTool' }]),
      }),
    ),
  );

  const blank = await one({ name: 'noArgs', arguments: '   ' });
  fact('blank-arguments-calls', counters.noArgs);
  fact('blank-arguments-result', lastContent(blank));
  fact('invalid-json-result', lastContent(await one({ name: 'echo', arguments: '{"text": "abc' })));
  fact('invalid-arguments-result', lastContent(await one({ name: 'addNumbers', arguments: { a: 'one' } })));
  fact('tool-exception-result', lastContent(await one({ name: 'explode', arguments: {} })));

  const perTool = await captureLimit(run(repeat('counted', 41)));
  fact('per-tool-limit-executed', counters.counted);
  fact('per-tool-limit-exception', perTool.name);
  fact('per-tool-limit-response-count', perTool.toolResponses);
  fact('per-tool-limit-last-response', perTool.lastResponse);

  const before = counters.counted;
  const total = await captureLimit(run(repeat('counted', 3), { limits: { total: 2 } }));
  fact('total-limit-executed', counters.counted - before);
  fact('total-limit-exception', total.name);
  fact('total-limit-message', total.message);

  // A driver's error is of unknown provenance: the model gets the code and the hint, not the text. Opted in
  // (`showErrorMessages: true`), the text is shown, redacted.
  fact('withheld-error-result', lastContent(await one({ name: 'leaky', arguments: {} })));
  const opened = createToolRuntime({ tools: registry, showErrorMessages: true });
  fact(
    'redacted-error-result',
    lastContent(
      await opened.executeToolCalls({ messages: [USER], response: assistantWithCalls([{ name: 'leaky' }]) }),
    ),
  );
  const transient = await one({ name: 'flaky', arguments: {} });
  fact('transient-retry-result', lastContent(transient));
  fact('transient-retry-attempts', transient.results[0]?.attempts);
  return facts;
}

function repeat(name: string, count: number): AssistantMessage {
  return assistantWithCalls(Array.from({ length: count }, () => ({ name })));
}

async function describeFailure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

async function captureLimit(promise: Promise<ToolExecutionResult>) {
  try {
    const result = await promise;
    return {
      name: 'none',
      message: '',
      toolResponses: countTools(result),
      lastResponse: result.messages.at(-1)?.content ?? '',
    };
  } catch (error) {
    if (!ToolwardenError.hasCode(error, 'TOOL_CALL_LIMIT')) throw error;
    const partial = (error as unknown as { partialResult: ToolExecutionResult }).partialResult;
    return {
      name: error.name,
      message: error.message,
      toolResponses: countTools(partial),
      lastResponse: partial.messages.at(-1)?.content ?? '',
    };
  }
}

function countTools(result: ToolExecutionResult): number {
  return result.messages.filter((m) => m.role === 'tool').length;
}
