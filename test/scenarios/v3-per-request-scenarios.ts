import { PermissionDeniedError } from '../../src/core/errors/permission-denied-error.js';
import { ToolInputError } from '../../src/core/errors/tool-input-error.js';
import { TransientToolError } from '../../src/core/errors/transient-tool-error.js';
import type { CallSpec } from '../../src/testing/assistant-with-calls.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { guardClassFamily } from './guard-class.js';
import type { ScenarioRun, V3ScenarioSpec } from './loop-scenario.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'retry-per-request';
const family = guardClassFamily(guardClass);

/** The user's follow-ups of a conversation that only asks for the same thing again. */
const TRY_AGAIN = ['Try again.', 'Please try again.', 'Once more, please.', 'Try again!'];

/**
 * Each request runs `calls` in order, one per round, then answers: with `answer` when the last result is
 * not an error, else with `failed`.
 */
function perRequestModel(
  calls: readonly Omit<CallSpec, 'id'>[],
  answer: string,
  failed: (error: string) => string,
) {
  return createAgentModel({
    decide: ({ round, lastTool }) => {
      const next = calls[round - 1];
      if (next !== undefined) return { calls: [next] };
      if (lastTool?.isError === true) return { answer: failed(lastTool.content) };
      return { answer };
    },
    lastWords: 'It did not work.',
  });
}

/** A check that `n` requests ran, each completed. */
const requestsRan =
  (n: number) =>
  ({ requests }: ScenarioRun): readonly string[] =>
    requests.length === n && requests.every((request) => request.type === 'completed')
      ? []
      : [`expected ${n} completed requests, got ${requests.map((request) => request.type).join(', ')}`];

export const v3PerRequestScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: '"try again" after a 503, and it goes',
    description: 'sendInvoice fails transiently; the user says "try again"; the same call succeeds',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let attempts = 0;
      const sendInvoice = defineTool({
        name: 'sendInvoice',
        description: 'E-mails an invoice to the customer.',
        input: stringInput('invoiceId'),
        effect: 'write',
        execute: () => {
          if (++attempts === 1) throw new TransientToolError({ message: 'mail relay returned 503' });
          return { sent: true, to: 'ap@customer.example' };
        },
      });
      return {
        model: perRequestModel(
          [{ name: 'sendInvoice', arguments: { invoiceId: 'INV-2291' } }],
          'INV-2291 is sent.',
          () => 'The mail service is unavailable right now.',
        ),
        tools: [sendInvoice],
        messages: [{ role: 'user', content: 'Send invoice INV-2291 to the customer.' }],
        followUps: ['Try again.'],
        check: requestsRan(2),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'the user fixes it twice; the third try goes',
    description:
      'uploadAvatar is refused "over 5 MB" in requests 1 and 2 (the user resizes in between); 3 goes',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let attempts = 0;
      const uploadAvatar = defineTool({
        name: 'uploadAvatar',
        description: "Sets the user's profile picture from a file of their drive.",
        input: stringInput('path'),
        effect: 'write',
        execute: () => {
          if (++attempts <= 2) throw new ToolInputError({ message: 'the image is over 5 MB' });
          return { avatar: 'set', sizeKb: 870 };
        },
      });
      return {
        model: perRequestModel(
          [{ name: 'uploadAvatar', arguments: { path: 'Pictures/me.png' } }],
          'Your new profile picture is set.',
          (error) => `That did not work: ${error}`,
        ),
        tools: [uploadAvatar],
        messages: [{ role: 'user', content: 'Use Pictures/me.png as my profile picture.' }],
        followUps: ["I've resized it, try again.", 'I saved it as a JPEG now, try again.'],
        check: requestsRan(3),
      };
    },
  },
  {
    family,
    guardClass,
    name: '"refresh" brings new figures each request',
    description: 'getDashboard in each of 4 requests: the same call, new figures each time',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let reads = 0;
      const getDashboard = defineTool({
        name: 'getDashboard',
        description: "Today's sales dashboard.",
        input: stringInput('shop'),
        effect: 'read',
        execute: () => {
          reads++;
          return { shop: 'eu', orders: 40 * reads, revenueEur: 2150 * reads, topProduct: 'trail runner' };
        },
      });
      return {
        model: perRequestModel(
          [{ name: 'getDashboard', arguments: { shop: 'eu' } }],
          'Here are the latest figures.',
          () => 'The dashboard is unavailable.',
        ),
        tools: [getDashboard],
        messages: [{ role: 'user', content: 'How are sales today in the EU shop?' }],
        followUps: ['Refresh.', 'Refresh again.', 'And now?'],
        check: requestsRan(4),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'the same refused post after each "try again"',
    description:
      'publishPost is refused "cover image over 5 MB" in 5 requests in a row; nothing changed between',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Request 2 (rounds 3-4) sends the refused call of round 1 again: the same refusal.
    evidentAt: 3,
    build() {
      const publishPost = defineTool({
        name: 'publishPost',
        description: 'Publishes a draft post of the blog.',
        input: stringInput('postId'),
        effect: 'write',
        execute: () => {
          throw new ToolInputError({ message: 'the cover image is over 5 MB' });
        },
      });
      return {
        model: perRequestModel(
          [{ name: 'publishPost', arguments: { postId: 'draft-48' } }],
          'The post is live.',
          (error) => `Publishing failed: ${error}`,
        ),
        tools: [publishPost],
        messages: [{ role: 'user', content: 'Publish draft-48.' }],
        followUps: TRY_AGAIN,
      };
    },
  },
  {
    family,
    guardClass,
    name: 'a denied deploy after each "try again"',
    description: 'deployToProd is PERMISSION_DENIED in 5 requests in a row; nothing changed between',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 3,
    build() {
      const deployToProd = defineTool({
        name: 'deployToProd',
        description: 'Deploys a build to production.',
        input: stringInput('build'),
        effect: 'write',
        execute: () => {
          throw new PermissionDeniedError({ message: 'production deploys need the release-manager role' });
        },
      });
      return {
        model: perRequestModel(
          [{ name: 'deployToProd', arguments: { build: '2025.05.12-3' } }],
          'Build 2025.05.12-3 is in production.',
          () => 'The deploy was not permitted.',
        ),
        tools: [deployToProd],
        messages: [{ role: 'user', content: 'Ship build 2025.05.12-3 to production.' }],
        followUps: TRY_AGAIN,
      };
    },
  },
  {
    family,
    guardClass,
    name: 'read, then the same refused cancel, each request',
    description:
      'each request: getOrder (the same), cancelOrder refused "already shipped"; 5 requests in a row',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    // Request 2 is rounds 4-6: its re-read is fair, its cancel at round 5 repeats round 2's refusal.
    evidentAt: 5,
    build() {
      const getOrder = defineTool({
        name: 'getOrder',
        description: 'An order: status, carrier, items.',
        input: stringInput('orderId'),
        effect: 'read',
        execute: ({ orderId }: { orderId: string }) => ({ orderId, status: 'shipped', carrier: 'PostNL' }),
      });
      const cancelOrder = defineTool({
        name: 'cancelOrder',
        description: 'Cancels an order that has not shipped.',
        input: stringInput('orderId'),
        effect: 'write',
        execute: () => {
          throw new ToolInputError({ message: 'order 9034 has already shipped and cannot be cancelled' });
        },
      });
      return {
        model: perRequestModel(
          [
            { name: 'getOrder', arguments: { orderId: '9034' } },
            { name: 'cancelOrder', arguments: { orderId: '9034' } },
          ],
          'Order 9034 is cancelled.',
          (error) => `I could not cancel it: ${error}`,
        ),
        tools: [getOrder, cancelOrder],
        messages: [{ role: 'user', content: 'Cancel order 9034.' }],
        followUps: TRY_AGAIN,
      };
    },
  },
];
