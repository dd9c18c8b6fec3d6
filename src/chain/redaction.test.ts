import { describe, expect, it } from 'vitest';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import type { Message } from '../core/message.js';
import { HOSTILE_ERROR_MESSAGES } from '../redact/__fixtures__/hostile-error-messages.js';
import { KEPT_IN_ARGUMENT_SUMMARIES } from '../redact/__fixtures__/kept-in-argument-summaries.js';
import { leakedFragments } from '../redact/__fixtures__/leak-check.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool, type ToolDefinition } from '../tools/define-tool.js';
import { createToolRuntime } from './runtime.js';

const user: Message = { role: 'user', content: 'go' };
const FRAGMENTS = HOSTILE_ERROR_MESSAGES.reduce((sum, entry) => sum + entry.secrets.length, 0);

/** One call of a tool that throws `thrown`; the call carries `argumentsText`. */
async function run(
  thrown: unknown,
  {
    settings = {},
    argumentsText = '{}',
  }: { settings?: Partial<ToolDefinition<unknown, unknown>>; argumentsText?: string } = {},
) {
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
  const execution = createToolRuntime({ tools: [tool] }).executeToolCalls({
    messages: [user],
    response: assistantWithCalls([{ name: 'leaky', arguments: argumentsText }]),
    onEvent: recorder.listener,
    includeContent: true,
  });
  return { execution, recorder };
}

async function leak(thrown: unknown, settings: Partial<ToolDefinition<unknown, unknown>> = {}) {
  const { execution, recorder } = await run(thrown, { settings });
  const result = await execution;
  const [event] = recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success');
  return { content: result.messages[2]?.content ?? '', error: event?.error };
}

describe('redaction through the chain: the hostile corpus at every place the chain shows text', () => {
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

  it('opted in (showErrorMessages) or written for the model (ToolInputError), no fragment reaches the tool message', async ({
    annotate,
  }) => {
    const leaked: string[] = [];
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      for (const { content, error } of [
        await leak(new Error(message), { showErrorMessages: true }),
        await leak(new ToolInputError({ message })),
      ]) {
        expect(content.startsWith('TOOL_ERROR: ')).toBe(true);
        expect((error as Error | undefined)?.message).toBe(message);
        leaked.push(...leakedFragments(content, secrets).map((secret) => `${name}: ${secret}`));
      }
    }
    void annotate(`${leaked.length} of ${FRAGMENTS} fragments leaked into tool messages (twice each)`);
    expect(leaked).toEqual([]);
  });

  it('an argument summary of a developer event leaks no secret and no personal data (it keeps what the summaries keep)', async ({
    annotate,
  }) => {
    const leaked: string[] = [];
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const argumentsText = JSON.stringify({ note: message });
      const { execution, recorder } = await run(new ToolInputError({ message: 'x' }), { argumentsText });
      await execution;
      const summaries = [
        ...recorder.ofType('tool-call-start'),
        ...recorder.ofType('tool-call-end').filter((e) => e.outcome !== 'success'),
      ].map((event) => event.argumentsSummary);
      expect(summaries.length).toBeGreaterThan(0);
      const kept = KEPT_IN_ARGUMENT_SUMMARIES[name] ?? [];
      for (const summary of summaries) {
        const shown = leakedFragments(summary, secrets).filter((secret) => !kept.includes(secret));
        leaked.push(...shown.map((secret) => `${name}: ${secret}`));
      }
    }
    void annotate(`${leaked.length} of ${FRAGMENTS} fragments leaked into argument summaries`);
    expect(leaked).toEqual([]);
  });

  it('an error that echoes what the model sent shows it; a secret it sent, and what it did not send, stay redacted', async () => {
    const key = ['sk', '_live_', '51HqLyjWDarjtT1zdp7dcXiZ0aRK8HK'].join('');
    const argumentsText = JSON.stringify({
      path: '/data/reports/q3.csv',
      apiKey: 'Tr0ub4dor&3x',
      note: key,
    });
    const message = `ENOENT: no such file or directory, open '/data/reports/q3.csv' (tried /srv/app/data/reports/q3.csv with Tr0ub4dor&3x and ${key})`;
    const { execution } = await run(new ToolInputError({ message }), { argumentsText });
    expect((await execution).messages[2]?.content).toBe(
      "TOOL_ERROR: ENOENT: no such file or directory, open '/data/reports/q3.csv' (tried [redacted:path] with [redacted:value] and [redacted:key])",
    );
  });

  it("a fatal error's thrown message leaks no fragment; its cause keeps the original", async () => {
    for (const { name, message, secrets } of HOSTILE_ERROR_MESSAGES) {
      const { execution } = await run(new FatalToolError({ message }), {
        settings: { classifyError: () => 'fatal' },
      });
      const thrown = await execution.then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: unknown },
      );
      expect(thrown?.name).toBe('ToolExecutionError');
      expect({ name, leaked: leakedFragments(thrown?.message ?? '', secrets) }).toEqual({ name, leaked: [] });
      expect((thrown?.cause as Error | undefined)?.message).toBe(message);
    }
  });
});
