import { TransientToolError } from '../../src/core/errors/transient-tool-error.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createAgentModel } from './create-agent-model.js';
import { expectRounds } from './expect-rounds.js';
import { guardClassFamily } from './guard-class.js';
import type { V3ScenarioSpec } from './loop-scenario.js';
import { opaqueToken, uuidOf } from './opaque-token.js';
import { stringInput } from './scenario-input.js';

const guardClass = 'fresh-client-id';
const family = guardClassFamily(guardClass);

/** postMessage: posts to a chat channel; the client sends its own message id, the server answers a new ts. */
function postMessageTool(posted: { text: string; channel: string }[] = []) {
  return defineTool({
    name: 'postMessage',
    description:
      'Posts a message to a chat channel. clientMsgId is a UUID the client makes for each message.',
    input: stringInput('channel', 'text', 'clientMsgId'),
    effect: 'write',
    execute: ({ channel, text }: { channel: string; text: string }) => {
      posted.push({ channel, text });
      return { ok: true, channel, ts: `1715522400.${String(posted.length).padStart(6, '0')}` };
    },
  });
}

/** Posts `messages[i]` (channel and text) in round i + 1, each with a new clientMsgId; then answers. */
function postModel(messages: readonly { channel: string; text: string }[], answer: string) {
  return createAgentModel({
    decide: ({ toolMessages }) => {
      const message = messages[toolMessages.length];
      if (message === undefined) return { answer };
      return {
        calls: [
          { name: 'postMessage', arguments: { ...message, clientMsgId: uuidOf(toolMessages.length + 1) } },
        ],
      };
    },
    lastWords: 'I posted part of the messages.',
  });
}

/** Sends the same write every round, with a new client-made id under `idField`; never answers. */
function resendModel(tool: string, args: Record<string, unknown>, idField: string, lastWords: string) {
  return createAgentModel({
    decide: ({ toolMessages }) => ({
      calls: [{ name: tool, arguments: { ...args, [idField]: uuidOf(toolMessages.length + 1) } }],
    }),
    lastWords,
  });
}

export const v3ClientIdScenarios: readonly V3ScenarioSpec[] = [
  {
    family,
    guardClass,
    name: 'an SMS resent with a new id after a 503',
    description:
      'sendSms fails transiently (a write: not retried); the model resends with a new clientRef: sent',
    kind: 'legitimate',
    expected: 'completed',
    build() {
      let attempts = 0;
      const sendSms = defineTool({
        name: 'sendSms',
        description: 'Sends a text message. clientRef is an id the client makes for each message.',
        input: stringInput('to', 'body', 'clientRef'),
        effect: 'write',
        execute: () => {
          if (++attempts === 1) throw new TransientToolError({ message: 'SMS gateway returned 503' });
          return { status: 'queued', messageSid: 'SM7a1c' };
        },
      });
      const model = createAgentModel({
        decide: ({ lastTool, toolMessages }) => {
          if (lastTool !== undefined && !lastTool.isError) return { answer: 'The reminder is on its way.' };
          const args = {
            to: '+31612345678',
            body: 'Reminder: dentist tomorrow at 09:30.',
            clientRef: opaqueToken('sms-', toolMessages.length + 1),
          };
          return { calls: [{ name: 'sendSms', arguments: args }] };
        },
        lastWords: 'The reminder could not be sent.',
      });
      return {
        model,
        tools: [sendSms],
        messages: [{ role: 'user', content: 'Text me a reminder of the dentist tomorrow at 09:30.' }],
        check: expectRounds(3),
      };
    },
  },
  {
    family,
    guardClass,
    name: 'five distinct posts, a new id each',
    description: 'postMessage 5 different stand-up updates to #team, each with its own clientMsgId',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: postModel(
        [
          'Yesterday: merged the CSV export.',
          'Today: the invoice PDF layout.',
          'Blocked: waiting for the VAT rates of Belgium.',
          'Review wanted: PR 412 (date parsing).',
          'Out on Friday afternoon.',
        ].map((text) => ({ channel: '#team', text })),
        'Your stand-up is posted in #team.',
      ),
      tools: [postMessageTool()],
      messages: [{ role: 'user', content: 'Post my stand-up in #team, one message per point.' }],
      check: expectRounds(6),
    }),
  },
  {
    family,
    guardClass,
    name: 'one announcement to three channels',
    description: 'postMessage the same text to #eng, #sales and #support, each with its own clientMsgId',
    kind: 'legitimate',
    expected: 'completed',
    build: () => ({
      model: postModel(
        ['#eng', '#sales', '#support'].map((channel) => ({
          channel,
          text: 'Release 4.2 is live: faster search and the new invoice layout.',
        })),
        'The release is announced in #eng, #sales and #support.',
      ),
      tools: [postMessageTool()],
      messages: [{ role: 'user', content: 'Announce release 4.2 in #eng, #sales and #support.' }],
      check: expectRounds(4),
    }),
  },
  {
    family,
    guardClass,
    name: 'one chat post sent again and again',
    description:
      'postMessage "Release 4.2 is live" to #launch succeeds; the model resends it with a new clientMsgId',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build: () => ({
      model: resendModel(
        'postMessage',
        { channel: '#launch', text: 'Release 4.2 is live.' },
        'clientMsgId',
        'I posted the release note in #launch.',
      ),
      tools: [postMessageTool()],
      messages: [{ role: 'user', content: 'Post "Release 4.2 is live." in #launch and give me its link.' }],
    }),
  },
  {
    family,
    guardClass,
    name: 'one ticket created again and again',
    description:
      'createTicket succeeds (a new ticket id each time); the model resends it with a new requestId',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      let created = 0;
      const createTicket = defineTool({
        name: 'createTicket',
        description: 'Opens an IT ticket. requestId is an id the client makes for each request.',
        input: stringInput('title', 'requestId'),
        effect: 'write',
        execute: () => ({ ticketId: `IT-${5000 + ++created}`, queue: 'hardware' }),
      });
      return {
        model: resendModel(
          'createTicket',
          { title: 'Replace the broken monitor at desk 4.12' },
          'requestId',
          'I opened a ticket for the monitor.',
        ),
        tools: [createTicket],
        messages: [
          { role: 'user', content: 'Open a ticket for the broken monitor at desk 4.12 and assign it to me.' },
        ],
      };
    },
  },
  {
    family,
    guardClass,
    name: 'one card charged again and again',
    description:
      'chargeCard 49.00 EUR succeeds; the model resends it with a new idempotencyKey (a new charge each time)',
    kind: 'loop',
    expected: 'LOOP_DETECTED',
    evidentAt: 2,
    build() {
      let charges = 0;
      const chargeCard = defineTool({
        name: 'chargeCard',
        description: "Charges a customer's card. idempotencyKey is a key the client makes for each charge.",
        input: {
          type: 'object',
          properties: {
            customerId: { type: 'string' },
            amountCents: { type: 'integer' },
            idempotencyKey: { type: 'string' },
          },
          required: ['customerId', 'amountCents', 'idempotencyKey'],
        },
        effect: 'write',
        execute: () => ({ status: 'succeeded', chargeId: opaqueToken('ch_', ++charges) }),
      });
      return {
        model: resendModel(
          'chargeCard',
          { customerId: 'cus-8812', amountCents: 4900 },
          'idempotencyKey',
          'I charged the annual fee.',
        ),
        tools: [chargeCard],
        messages: [
          { role: 'user', content: 'Charge cus-8812 the 49 EUR annual fee and send me the receipt link.' },
        ],
      };
    },
  },
];
