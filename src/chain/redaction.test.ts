import { describe, expect, it } from 'vitest';
import { FatalToolError } from '../errors/fatal-tool-error.js';
import { ToolInputError } from '../errors/tool-input-error.js';
import type { Message } from '../messages/message.js';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { leakedFragments } from '../redact/__fixtures__/leak-check.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { executeToolCalls } from './execute-tool-calls.js';

const user: Message = { role: 'user', content: 'go' };
const FRAGMENTS = HOSTILE_ERROR_MESSAGES.reduce((sum, entry) => sum + entry.secrets.length, 0);

/** A tool that fails with `failure(message)`; its one call carries `argumentsText`. */
async function failOnce(failure: (message: string) => unknown, message: string, argumentsText = '{}') {
  const recorder = recordEvents();
  const tool = defineTool({
    name: 'leaky',
    description: 'd',
    effect: 'read',
    execute: () => {
      throw failure(message);
    },
  });
  const run = executeToolCalls({
    messages: [user],
    response: assistantWithCalls([{ name: 'leaky', arguments: argumentsText }]),
    tools: [tool],
    onEvent: recorder.listener,
    includeContent: true,
  });
  return { run, recorder };
}

describe('redaction through the chain: the hostile corpus at every place the chain shows text', () => {
  it('a tool message of a typed error shown to the model leaks no fragment, and the event keeps the error', async ({
    annotate,
  }) => {
    const leaked: string[] = [];
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const { run, recorder } = await failOnce((text) => new ToolInputError({ message: text }), message);
      const result = await run;
      const content = result.messages[2]?.content ?? '';
      expect(content.startsWith('TOOL_ERROR: ')).toBe(true);
      leaked.push(...leakedFragments(content, secrets).map((secret) => `${name}: ${secret}`));
      const [event] = recorder.ofType('tool-call-error');
      expect((event?.error as Error | undefined)?.message).toBe(message);
    }
    void annotate(`${leaked.length} of ${FRAGMENTS} fragments leaked into tool messages`);
    expect(leaked).toEqual([]);
  });

  it('an argument summary of a developer event leaks no fragment', async ({ annotate }) => {
    const leaked: string[] = [];
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const argumentsText = JSON.stringify({ note: message });
      const { run, recorder } = await failOnce(
        (text) => new ToolInputError({ message: text }),
        'x',
        argumentsText,
      );
      await run;
      const summaries = [...recorder.ofType('tool-call-start'), ...recorder.ofType('tool-call-error')].map(
        (event) => event.argumentsSummary,
      );
      expect(summaries.length).toBeGreaterThan(0);
      for (const summary of summaries) {
        leaked.push(...leakedFragments(summary, secrets).map((secret) => `${name}: ${secret}`));
      }
    }
    void annotate(`${leaked.length} of ${FRAGMENTS} fragments leaked into argument summaries`);
    expect(leaked).toEqual([]);
  });

  it("a fatal error's thrown message leaks no fragment; its cause keeps the original", async () => {
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const { run } = await failOnce((text) => new FatalToolError({ message: text }), message);
      const thrown = await run.then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: unknown },
      );
      expect(thrown?.name).toBe('ToolExecutionError');
      expect({ name, leaked: leakedFragments(thrown?.message ?? '', secrets) }).toEqual({ name, leaked: [] });
      expect((thrown?.cause as Error | undefined)?.message).toBe(message);
    }
  });
});
