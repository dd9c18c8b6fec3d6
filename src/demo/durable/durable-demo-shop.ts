import type { Model } from '../../core/model.js';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';

/** The calls the demo's model asks for, one a round: a read, then two writes. */
const ROUNDS = [
  { name: 'getOrder', arguments: { order: 'A-1' } },
  { name: 'refundOrder', arguments: { order: 'A-1', cents: 2500 } },
  { name: 'emailCustomer', arguments: { order: 'A-1', text: 'Your refund is on its way.' } },
] as const;

export const DURABLE_DEMO_ANSWER = 'Refunded order A-1 and emailed the customer.';

/**
 * The demo's model: its answer follows from the conversation alone (the n-th round after n tool answers),
 * as a real model's recorded answer does in a recovered turn: a process that takes over asks it for the
 * next round, not the first.
 */
export function durableDemoModel(onCall: () => void): Model {
  return {
    async generate(request) {
      onCall();
      const answered = request.messages.filter((message) => message.role === 'tool').length;
      const call = ROUNDS[answered];
      const usage = { inputTokens: 1, outputTokens: 1 };
      if (call === undefined) return { message: { role: 'assistant', content: DURABLE_DEMO_ANSWER }, usage };
      const toolCalls = [
        { id: `call-${call.name}`, name: call.name, arguments: JSON.stringify(call.arguments) },
      ];
      return { message: { role: 'assistant', content: '', toolCalls }, usage };
    },
  };
}

/** The shop's tools; each execution calls `onRun` with its name. */
export function durableDemoTools(onRun: (name: string) => void): AnyTool[] {
  const tool = (name: string, effect: 'read' | 'write', text: string) =>
    defineTool({
      name,
      description: text,
      effect,
      input: { type: 'object', additionalProperties: true },
      execute: () => {
        onRun(name);
        return `${name} done`;
      },
    });
  return [
    tool('getOrder', 'read', 'Reads an order.'),
    tool('refundOrder', 'write', 'Refunds an order (money moves).'),
    tool('emailCustomer', 'write', 'Emails the customer of an order.'),
  ];
}
