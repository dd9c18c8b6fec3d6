// The turn the durable tests run: a scripted model that asks for five calls over three rounds, then
// answers, and the tools it calls. Every model call and tool execution appends `<what> <session> <pid>`
// to an effects file, the side effects the tests count across processes.
import { appendFileSync } from 'node:fs';
import type { Model } from '../../../core/model.js';
import { defineTool } from '../../../tools/define-tool.js';

/** The rounds the model asks for, in order: reads and writes mixed, five calls in all. */
export const ROUNDS: readonly (readonly { name: string; write: boolean }[])[] = [
  [
    { name: 'lookup', write: false },
    { name: 'charge', write: true },
  ],
  [
    { name: 'reserve', write: true },
    { name: 'stock', write: false },
  ],
  [{ name: 'email', write: true }],
];

/**
 * The steps of the turn in DBOS's order: a model call per round and one more, a step per tool call, and
 * the store calls made outside them (the guard's memory loaded first and saved last, the turn's counts
 * reserved before a round of more than one call).
 */
export const STEPS: readonly string[] = [
  'store:get',
  ...ROUNDS.flatMap((round) => [
    'model',
    ...(round.length > 1 ? ['store:reserve'] : []),
    ...round.map((call) => `tool:${call.name}`),
  ]),
  'model',
  'store:set',
];

export const FINAL_TEXT = 'charged, reserved and emailed';

/** Appends `<what> <session> <pid>` to `file`. */
export function effectsLog(file: string): (what: string, session: string | undefined) => void {
  return (what, session) => appendFileSync(file, `${what} ${session ?? '-'} ${process.pid}\n`);
}

/** The round a request is in: the number of rounds whose calls are all answered. */
function roundOf(answered: number): number {
  let round = 0;
  for (let seen = 0; round < ROUNDS.length; round++) {
    seen += ROUNDS[round]?.length ?? 0;
    if (seen > answered) break;
  }
  return round;
}

/**
 * The model: answers round n (counted by the tool messages so far) with its calls, then the final text.
 * `onCall` runs first (it logs; a test may stop there).
 */
export function scriptedModel(onCall: (round: number, sessionId: string) => void | Promise<void>): Model {
  return {
    async generate(request) {
      const answered = request.messages.filter((message) => message.role === 'tool').length;
      const round = roundOf(answered);
      const first = request.messages.find((message) => message.role === 'user');
      await onCall(round, typeof first?.content === 'string' ? first.content : '');
      const calls = ROUNDS[round];
      const usage = { inputTokens: 1, outputTokens: 1 };
      if (calls === undefined) return { message: { role: 'assistant', content: FINAL_TEXT }, usage };
      return {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: calls.map((call) => ({
            id: `call-${call.name}`,
            name: call.name,
            arguments: JSON.stringify({ order: 'A-1' }),
          })),
        },
        usage,
      };
    },
  };
}

/** The five tools; `onRun(name, session)` runs in each execution (it logs the effect), awaited. */
export function turnTools(
  onRun: (name: string, session: string | undefined) => void | Promise<void>,
  approvals: readonly string[] = [],
) {
  return ROUNDS.flat().map(({ name, write }) =>
    defineTool({
      name,
      description: `${name} an order`,
      effect: write ? 'write' : 'read',
      ...(approvals.includes(name) ? { needsApproval: true } : {}),
      input: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      execute: async ({ order }: { order: string }, context) => {
        await onRun(name, context.sessionId);
        return `${name} ${order} done`;
      },
    }),
  );
}
