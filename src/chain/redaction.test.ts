import { describe, expect, it } from 'vitest';
import { ToolInputError } from '../errors/tool-input-error.js';
import type { Message } from '../messages/message.js';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool, type ToolDefinition } from '../tools/define-tool.js';
import { executeToolCalls } from './execute-tool-calls.js';

const user: Message = { role: 'user', content: 'go' };

async function leak(
  thrown: unknown,
  settings: Partial<ToolDefinition<unknown, unknown>> = {},
): Promise<{ content: string; error: unknown }> {
  const recorder = recordEvents();
  const tool = defineTool({
    name: 'leaky',
    description: 'd',
    effect: 'read',
    classifyError: () => 'invalid-input',
    ...settings,
    execute: () => {
      throw thrown;
    },
  });
  const result = await executeToolCalls({
    messages: [user],
    response: assistantWithCalls([{ name: 'leaky' }]),
    tools: [tool],
    onEvent: recorder.listener,
    includeContent: true,
  });
  const [event] = recorder.ofType('tool-call-error');
  return { content: result.messages[2]?.content ?? '', error: event?.error };
}

describe('redaction through the chain', () => {
  it('has a corpus of at least 30 hostile error messages', () => {
    expect(HOSTILE_ERROR_MESSAGES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE_ERROR_MESSAGES.map((entry) => [entry.name, entry] as const))(
    '%s: a plain Error shows the model nothing of its text; the developer event keeps the original',
    async (_name, entry) => {
      const { content, error } = await leak(new Error(entry.message));
      expect(content).toBe(
        "TOOL_ERROR: Tool 'leaky' failed; its error text is withheld. Check the arguments and call it again only with changed values: repeating the same call will not help.",
      );
      expect((error as Error | undefined)?.message).toBe(entry.message);
    },
  );

  it.each(HOSTILE_ERROR_MESSAGES.map((entry) => [entry.name, entry] as const))(
    '%s: opted in (showErrorMessages) or written for the model (ToolInputError), no secret reaches the tool message',
    async (_name, entry) => {
      for (const { content } of [
        await leak(new Error(entry.message), { showErrorMessages: true }),
        await leak(new ToolInputError({ message: entry.message })),
      ]) {
        expect(content.startsWith('TOOL_ERROR: ')).toBe(true);
        for (const secret of entry.secrets) expect(content).not.toContain(secret);
      }
    },
  );
});
