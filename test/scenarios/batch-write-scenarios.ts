import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import type { ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

/** Items of the long batch: each takes two rounds (look the contact up, send), so 81 rounds in all. */
export const LONG_BATCH_ITEMS = 40;
/** The ceiling the long batch raises (the one option it needs): more than its 81 rounds. */
export const LONG_BATCH_MAX_ROUND_TRIPS = 90;

/** sendInvite: a write answered by the same acknowledgement every time. */
export function sendInviteTool(sent: { count: number } = { count: 0 }) {
  return defineTool({
    name: 'sendInvite',
    description: 'Sends an invitation e-mail to one address.',
    input: stringInput('email'),
    effect: 'write',
    execute: () => {
      sent.count++;
      return { status: 'sent' };
    },
  });
}

export const emailOf = (n: number) => `guest${n}@example.org`;

/**
 * What is wrong with a stop text (what the user reads) after writes: it must name the write tool and how
 * often it ran (`runs` within a few words of the name), and never invite a blind retry.
 */
export function stopTextProblems(text: string, tool: string, runs: number): string[] {
  const problems: string[] = [];
  const count = runs === 1 ? '(?:once|1)' : String(runs);
  const near = new RegExp(`${tool}.{0,40}\\b${count}\\b|\\b${count}\\b.{0,40}${tool}`, 's');
  if (!text.includes(tool)) problems.push(`the stop text does not name ${tool}`);
  else if (!near.test(text)) problems.push(`the stop text does not say that ${tool} ran ${runs} times`);
  if (/try again/i.test(text)) problems.push('the stop text says "try again"');
  return problems;
}

export const batchWriteScenarios: readonly ScenarioSpec[] = [
  {
    family: 'batch writes',
    name: '12 invites, one acknowledgement',
    description: 'sendInvite to 12 addresses, one per round, each answered {"status":"sent"}',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const model = createAgentModel({
        decide: ({ toolMessages }) =>
          toolMessages.length < 12
            ? { calls: [{ name: 'sendInvite', arguments: { email: emailOf(toolMessages.length + 1) } }] }
            : { answer: 'All 12 invitations are sent.' },
        lastWords: 'I sent some of the invitations.',
      });
      return {
        model,
        tools: [sendInviteTool()],
        messages: [{ role: 'user', content: 'Invite the 12 guests on the list.' }],
      };
    },
  },
  {
    family: 'batch writes',
    name: `${LONG_BATCH_ITEMS}-item batch, ceiling raised`,
    description: `lookupContact then sendInvite for ${LONG_BATCH_ITEMS} people (81 rounds): maxRoundTrips ${LONG_BATCH_MAX_ROUND_TRIPS}`,
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const lookupContact = defineTool({
        name: 'lookupContact',
        description: "A contact's e-mail address, by name.",
        input: stringInput('name'),
        effect: 'read',
        execute: ({ name }: { name: string }) => ({
          name,
          email: emailOf(Number(name.slice('Guest '.length))),
        }),
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          const done = Math.floor(toolMessages.length / 2);
          if (lastTool?.name === 'lookupContact') {
            const email = /"email":"([^"]+)"/.exec(lastTool.content)?.[1] ?? '';
            return { calls: [{ name: 'sendInvite', arguments: { email } }] };
          }
          if (done === LONG_BATCH_ITEMS) return { answer: `All ${LONG_BATCH_ITEMS} invitations are sent.` };
          return { calls: [{ name: 'lookupContact', arguments: { name: `Guest ${done + 1}` } }] };
        },
        lastWords: 'I sent some of the invitations.',
      });
      return {
        model,
        tools: [lookupContact, sendInviteTool()],
        messages: [{ role: 'user', content: `Invite the ${LONG_BATCH_ITEMS} people on the guest list.` }],
        options: { maxRoundTrips: LONG_BATCH_MAX_ROUND_TRIPS },
        check: ({ roundTrips }) =>
          roundTrips === 2 * LONG_BATCH_ITEMS + 1 ? [] : [`expected 81 rounds, got ${roundTrips}`],
      };
    },
  },
  {
    family: 'batch writes',
    name: '5 invites in one response',
    description: 'five distinct sendInvite calls in one response, all {"status":"sent"}, then the answer',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const model = createAgentModel({
        decide: ({ round }) =>
          round === 1
            ? {
                calls: [1, 2, 3, 4, 5].map((n) => ({ name: 'sendInvite', arguments: { email: emailOf(n) } })),
              }
            : { answer: 'All 5 invitations are sent.' },
        lastWords: 'I sent the invitations.',
      });
      return {
        model,
        tools: [sendInviteTool()],
        messages: [{ role: 'user', content: 'Invite the 5 guests on the list.' }],
      };
    },
  },
  {
    family: 'batch writes',
    name: 'the same invite sent again',
    description: 'the model does not trust {"status":"sent"} and sends the same invitation again',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    detector: 'exact-repeat',
    evidentAt: 2,
    build() {
      const model = createAgentModel({
        decide: () => ({ calls: [{ name: 'sendInvite', arguments: { email: emailOf(1) } }] }),
        lastWords: 'I could not confirm that the invitation arrived.',
      });
      // The repeats are answered from the first call's idempotency record: the text tells what was sent.
      const sent = { count: 0 };
      return {
        model,
        tools: [sendInviteTool(sent)],
        messages: [{ role: 'user', content: `Invite ${emailOf(1)} and make sure it arrives.` }],
        check: ({ outcome }) =>
          outcome.type === 'stopped' ? stopTextProblems(outcome.text, 'sendInvite', sent.count) : [],
      };
    },
  },
];
