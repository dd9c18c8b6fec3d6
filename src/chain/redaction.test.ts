import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { executeToolCalls } from './execute-tool-calls.js';

const user: Message = { role: 'user', content: 'go' };

describe('redaction through the chain', () => {
  it('has a corpus of at least 30 hostile error messages', () => {
    expect(HOSTILE_ERROR_MESSAGES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE_ERROR_MESSAGES.map((entry) => [entry.name, entry] as const))(
    '%s: no secret reaches the tool message, and the developer event keeps the original',
    async (_name, entry) => {
      const recorder = recordEvents();
      const tool = defineTool({
        name: 'leaky',
        description: 'd',
        effect: 'read',
        classifyError: () => 'invalid-input',
        execute: () => {
          throw new Error(entry.message);
        },
      });
      const result = await executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'leaky' }]),
        tools: [tool],
        onEvent: recorder.listener,
        includeContent: true,
      });
      const content = result.messages[2]?.content ?? '';
      expect(content.startsWith('TOOL_ERROR: ')).toBe(true);
      for (const secret of entry.secrets) expect(content).not.toContain(secret);
      const [event] = recorder.ofType('tool-call-error');
      expect((event?.error as Error | undefined)?.message).toBe(entry.message);
    },
  );
});
