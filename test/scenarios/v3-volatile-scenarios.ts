import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { uuidOf } from './opaque-token.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'volatile-values';
const family = guardClassFamily(guardClass);

/** A clock for volatile fields: 14:00:00 plus `n` times 7 seconds, on a fixed day. */
const clock = (n: number) => new Date(Date.UTC(2025, 4, 12, 14, 0, n * 7)).toISOString();

/** A tool answering its n-th call with `answer(n)` (n from 1). */
function countingTool(
  name: string,
  description: string,
  input: ReturnType<typeof stringInput> | undefined,
  answer: (n: number) => unknown,
  format?: (value: string) => string,
) {
  let calls = 0;
  return defineTool({
    name,
    description,
    ...(input === undefined ? {} : { input }),
    effect: 'read',
    execute: () => answer(++calls),
    ...(format === undefined ? {} : { formatResult: (value: unknown) => format(String(value)) }),
  });
}

/** Calls `name(args)` every round until a result contains `done`. */
function callUntil(name: string, args: unknown, done: string, answer: string, lastWords: string) {
  return createAgentModel({
    decide: ({ lastTool }) =>
      lastTool?.content.includes(done) === true ? { answer } : { calls: [{ name, arguments: args }] },
    lastWords,
  });
}

export const v3VolatileScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'backup: progress and a timestamp',
    description: 'getBackupStatus (not declared polled): observedAt changes, and progress 20, 40, ... 100',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: callUntil(
        'getBackupStatus',
        { backupId: 'bk-0512' },
        '"progressPct":100',
        'The nightly backup finished.',
        'The backup is still running.',
      ),
      tools: [
        countingTool('getBackupStatus', 'The status of a backup job.', stringInput('backupId'), (n) => ({
          backupId: 'bk-0512',
          progressPct: Math.min(n * 20, 100),
          observedAt: clock(n),
        })),
      ],
      messages: [{ role: 'user', content: 'Tell me when the nightly backup bk-0512 is done.' }],
      check: expectRounds(6),
    }),
  },
  {
    family,
    guardClass,
    name: 'processNext: a counter that is the work',
    description:
      'processNextRefund (a write, same arguments) answers processed 1, 2, ... 6 of 6: the counter is progress',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let processed = 0;
      const processNextRefund = defineTool({
        name: 'processNextRefund',
        description: 'Pays out the next approved refund of the queue.',
        input: stringInput('queue'),
        effect: 'write',
        idempotency: false,
        execute: () => {
          processed = Math.min(processed + 1, 6);
          return { processed, remaining: 6 - processed };
        },
      });
      return {
        model: callUntil(
          'processNextRefund',
          { queue: 'approved' },
          '"remaining":0',
          'The 6 approved refunds are paid out.',
          'I paid out part of the refunds.',
        ),
        tools: [processNextRefund],
        messages: [{ role: 'user', content: 'Pay out the approved refunds.' }],
        check: expectRounds(7),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a fresh delivery UUID, a new message',
    description: 'receiveMessage answers a new message with a new deliveryUuid, 4 times, then an empty queue',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      const subjects = ['Invoice 311 overdue', 'Address change', 'Cancel order 88', 'Login problem'];
      return {
        model: callUntil(
          'receiveMessage',
          { queue: 'inbox' },
          '"message":null',
          'The inbox is triaged.',
          'I triaged part of the inbox.',
        ),
        tools: [
          countingTool(
            'receiveMessage',
            'Receives the next message of a queue.',
            stringInput('queue'),
            (n) => ({
              message: subjects[n - 1] ?? null,
              deliveryUuid: uuidOf(n),
            }),
          ),
        ],
        messages: [{ role: 'user', content: 'Triage the support inbox.' }],
        check: expectRounds(6),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a status whose only change is observedAt',
    description:
      'getDeploymentStatus: pending, 0 of 3 ready, a new observedAt (not a built-in name) each call',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: callUntil(
        'getDeploymentStatus',
        { deploymentId: 'dep-91' },
        '"state":"ready"',
        'dep-91 is ready.',
        'dep-91 is still pending.',
      ),
      tools: [
        countingTool(
          'getDeploymentStatus',
          'The state of a deployment.',
          stringInput('deploymentId'),
          (n) => ({
            deploymentId: 'dep-91',
            state: 'pending',
            replicasReady: 0,
            replicasWanted: 3,
            observedAt: clock(n),
          }),
        ),
      ],
      messages: [{ role: 'user', content: 'Is deployment dep-91 ready?' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'a fresh responseUuid on the same refusal',
    description: 'checkVatNumber answers "member state unavailable" with a new responseUuid, on and on',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: callUntil(
        'checkVatNumber',
        { vatNumber: 'DE811907980' },
        '"valid":true',
        'The VAT number is valid.',
        'The VAT check is unavailable.',
      ),
      tools: [
        countingTool(
          'checkVatNumber',
          'Checks an EU VAT number with VIES.',
          stringInput('vatNumber'),
          (n) => ({
            valid: false,
            reason: 'MS_UNAVAILABLE: the member state service is unavailable',
            responseUuid: uuidOf(n),
          }),
        ),
      ],
      messages: [{ role: 'user', content: 'Is VAT number DE811907980 valid?' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'a growing attempt counter',
    description: 'verifyIdentity answers "photo unreadable" with attempt 1, 2, 3, ...: nothing else changes',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: callUntil(
        'verifyIdentity',
        { applicantId: 'ap-3307' },
        '"verified":true',
        'The applicant is verified.',
        'The identity check keeps failing.',
      ),
      tools: [
        countingTool(
          'verifyIdentity',
          "Runs the identity check on an applicant's documents.",
          stringInput('applicantId'),
          (n) => ({
            verified: false,
            attempt: n,
            reason: 'the photo of the passport is unreadable',
          }),
        ),
      ],
      messages: [{ role: 'user', content: 'Verify applicant ap-3307.' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'a request id inside plain text',
    description:
      'getRatePlan answers text: "Request <id>: plan Basic unchanged since 2024-11-02", a new id each time',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: callUntil(
        'getRatePlan',
        { accountId: 'acc-55' },
        'plan Premium',
        'acc-55 is on Premium.',
        'acc-55 is still on Basic.',
      ),
      tools: [
        countingTool(
          'getRatePlan',
          "The rate plan of an account, as the billing system's text.",
          stringInput('accountId'),
          (n) => `Request ${uuidOf(n).slice(0, 8)}: account acc-55, plan Basic unchanged since 2024-11-02.`,
          (text) => text,
        ),
      ],
      messages: [{ role: 'user', content: 'Has acc-55 moved to Premium yet?' }],
    }),
  },
];
