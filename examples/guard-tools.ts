// AI SDK tools guarded in place: the user keeps `generateText`; toolwarden runs each tool call and stops
// a looping model with a final answer. The model is the AI SDK's mock here (a real one is any provider's).
import { generateText, type LanguageModel, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { guardTools } from '../src/adapters/ai-sdk/index.js';
import { MemoryStore } from '../src/index.js';

export const sent: string[] = [];

const tools = {
  searchOrders: tool({
    description: 'Search orders by customer email.',
    inputSchema: z.object({ email: z.string() }),
    execute: async ({ email }) => ({ orders: [] as string[], email }),
  }),
  sendEmail: tool({
    description: 'Send an email.',
    inputSchema: z.object({ to: z.string(), body: z.string() }),
    needsApproval: true,
    execute: async ({ to }) => {
      sent.push(to);
      return { sent: true };
    },
  }),
};

/** Shared by every request (in several processes: `createRedisStore` from toolwarden/redis). */
const store = new MemoryStore();

export async function answer(model: LanguageModel, prompt: string, conversationId: string) {
  const guarded = guardTools(tools, {
    writes: ['sendEmail'],
    perTool: { searchOrders: { timeoutMs: 5_000 } },
    limits: { perTool: 10 },
    store,
    sessionId: conversationId,
  });
  const result = await generateText({
    model,
    tools: guarded.tools,
    stopWhen: [stepCountIs(10), guarded.stopWhen],
    prepareStep: guarded.prepareStep,
    prompt,
  });
  return { text: result.text, steps: result.steps.length, loop: guarded.stopEvidence() };
}
