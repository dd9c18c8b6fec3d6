import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import type { Message } from '../core/message.js';
import { MemoryStore } from '../store/memory-store.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { historyProblems } from '../testing/history-problems.js';
import { recordEvents } from '../testing/record-events.js';
import type { CallDecision } from '../tools/call-decision.js';
import { type Decide, defineTool, type ToolDefinition } from '../tools/define-tool.js';
import { argumentsDigest } from './arguments-digest.js';
import { runToolCalls } from './calls.js';
import { emptyTurnCounts } from './limits.js';
import {
  createToolRuntime,
  type ExecutionRequest,
  resolvedRuntime,
  type ToolRuntimeOptions,
} from './runtime.js';

/** The options of a runtime's request; the rest of a case's input is the runtime's policy. */
const REQUEST_KEYS = new Set([
  'messages',
  'response',
  'decisions',
  'signal',
  'data',
  'turnId',
  'sessionId',
  'now',
  'onEvent',
  'includeContent',
]);

/** A runtime for one response, built from the policy and request a case gives in one object. */
function executeToolCalls(input: ToolRuntimeOptions & ExecutionRequest) {
  const policy: Record<string, unknown> = {};
  const request: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) (REQUEST_KEYS.has(key) ? request : policy)[key] = value;
  return createToolRuntime(policy as unknown as ToolRuntimeOptions).executeToolCalls(
    request as unknown as ExecutionRequest,
  );
}

/** The answers a test hook gives. */
const run: CallDecision = { type: 'run' };
const ask: CallDecision = { type: 'ask' };

// The hook itself: what it sees, its three answers, and how the tool's and the policy's combine.

const user: Message = { role: 'user', content: 'go' };

function readWriteTools(hook?: Decide) {
  const ran: string[] = [];
  const make = (name: string, effect: 'read' | 'write') =>
    defineTool({
      name,
      description: 'd',
      effect,
      input: { type: 'object', properties: { n: { type: 'number' } } },
      ...(hook === undefined ? {} : { decide: hook }),
      execute: ({ n }: { n?: number }) => {
        ran.push(name);
        return n ?? name;
      },
    });
  return { list: [make('read', 'read'), make('write', 'write')], ran };
}

const response = assistantWithCalls([
  { name: 'read', arguments: { n: 1 } },
  { name: 'write', arguments: { n: 2 } },
]);

describe('decide', () => {
  it('is asked with the validated call and the execution context; run runs the call', async () => {
    const seen: unknown[] = [];
    const { list, ran } = readWriteTools();
    const signal = new AbortController().signal;
    await executeToolCalls({
      messages: [user],
      response,
      tools: list,
      data: { tenant: 't1' },
      turnId: 'turn-1',
      sessionId: 's-1',
      store: new MemoryStore(),
      signal,
      decide: (call, context) => {
        seen.push({ ...call, tool: call.tool.name }, context);
        return run;
      },
    });
    expect(ran).toEqual(['read', 'write']);
    expect(seen[0]).toEqual({
      toolCallId: 'call_1',
      toolName: 'read',
      arguments: { n: 1 },
      rawArguments: '{"n":1}',
      tool: 'read',
    });
    expect(seen[1]).toEqual({ turnId: 'turn-1', sessionId: 's-1', data: { tenant: 't1' }, signal });
  });

  it('deny: the tool never runs, the model learns only that it is not permitted, the audit event has the reason', async () => {
    const { list, ran } = readWriteTools();
    const recorder = recordEvents();
    const result = await executeToolCalls({
      messages: [user],
      response,
      tools: list,
      onEvent: recorder.listener,
      decide: ({ tool }) =>
        tool.effect === 'write' ? { type: 'deny', reason: 'writes need role admin (user 17)' } : run,
    });
    expect(ran).toEqual(['read']);
    expect(result.results[1]).toMatchObject({
      type: 'error',
      errorClass: 'denied',
      code: 'PERMISSION_DENIED',
      content: 'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    });
    expect(JSON.stringify(result.messages)).not.toContain('admin');
    expect(recorder.ofType('tool-call-end').filter((e) => e.outcome === 'denied')).toEqual([
      expect.objectContaining({
        toolName: 'write',
        toolCallId: 'call_2',
        denialReason: 'writes need role admin (user 17)',
      }),
    ]);
  });

  it('ask: the call waits; the calls of the response that need no decision run, and the result lists what waits', async () => {
    const { list, ran } = readWriteTools();
    const recorder = recordEvents();
    const messages: readonly Message[] = [user];
    const result = await executeToolCalls({
      messages,
      response,
      tools: list,
      onEvent: recorder.listener,
      decide: ({ tool }) =>
        tool.effect === 'write' ? { type: 'ask', reason: 'needs approval', payload: { ticket: 9 } } : run,
    });
    expect(ran).toEqual(['read']);
    expect(
      recorder.events.map((event) => `${event.type}:${'toolCallId' in event ? event.toolCallId : ''}`),
    ).toEqual(['tool-call-start:call_1', 'tool-call-end:call_1']);
    expect(result).toEqual({
      messages: [
        user,
        response,
        expect.objectContaining({ role: 'tool', toolCallId: 'call_1', content: '1' }),
      ],
      results: [expect.objectContaining({ toolCallId: 'call_1', type: 'success' })],
      returnDirect: false,
      interrupted: [
        {
          toolCallId: 'call_2',
          toolName: 'write',
          arguments: '{"n":2}',
          argumentsSummary: '{"n":2}',
          argumentsDigest: argumentsDigest('write', '{"n":2}'),
          reason: 'needs approval',
          payload: { ticket: 9 },
        },
      ],
    });
    expect(messages).toEqual([user]);
  });

  it('resumes a partly run response from the returned messages: only the waiting call runs, and every answer follows the assistant message in the model’s order', async () => {
    const { list, ran } = readWriteTools();
    const runtime = createToolRuntime({
      tools: list,
      decide: ({ tool }) => (tool.effect === 'write' ? ask : run),
    });
    const first = await runtime.executeToolCalls({ messages: [user], response });
    expect(ran).toEqual(['read']);
    const resumed = await runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_2: { approve: true, argumentsDigest: argumentsDigest('write', '{"n":2}') } },
    });
    expect(ran).toEqual(['read', 'write']);
    expect(resumed.interrupted).toBeUndefined();
    expect(resumed.results.map((r) => r.toolCallId)).toEqual(['call_2']);
    expect(resumed.messages.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'user',
      'assistant',
      'call_1',
      'call_2',
    ]);
    expect(historyProblems(resumed.messages)).toEqual([]);
    const changed = runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_2: { approve: true, argumentsDigest: argumentsDigest('write', '{"n":3}') } },
    });
    await expect(changed).rejects.toMatchObject({ name: 'ApprovalError', reason: 'arguments-changed' });
    expect(ran).toEqual(['read', 'write']);
  });

  it('resumes with decisions: the hook is asked again, and the decision settles what it asks; run runs it, deny denies it', async () => {
    const { list, ran } = readWriteTools();
    const asked: string[] = [];
    const runtime = createToolRuntime({
      tools: list,
      decide: ({ toolCallId }) => {
        asked.push(toolCallId);
        return ask;
      },
    });
    const first = await runtime.executeToolCalls({ messages: [user], response });
    expect(first.interrupted?.map((call) => call.toolCallId)).toEqual(['call_1', 'call_2']);
    asked.length = 0;
    const resumed = await runtime.executeToolCalls({
      messages: first.messages,
      response,
      decisions: { call_1: 'run', call_2: 'deny' },
    });
    expect(asked).toEqual(['call_1', 'call_2']);
    expect(ran).toEqual(['read']);
    expect(resumed.results.map((r) => (r.type === 'error' ? r.code : r.content))).toEqual([
      '1',
      'PERMISSION_DENIED',
    ]);
  });

  it('gives back what the waiting calls added to the turn’s counts; the answered ones keep theirs', async () => {
    const { list } = readWriteTools();
    const runtime = createToolRuntime({ tools: list, decide: () => ask });
    const counts = emptyTurnCounts();
    counts.total = 3;
    counts.perTool.set('read', 3);
    const outcome = await runToolCalls(
      {
        assistant: assistantWithCalls([
          { name: 'read', arguments: { n: 1 } },
          { name: 'write', arguments: '{' },
        ]),
        counts,
      },
      resolvedRuntime(runtime),
    );
    expect(outcome.interrupted?.map((call) => call.toolName)).toEqual(['read']);
    // The write's arguments are not JSON: it was answered (no decision is asked of a call that cannot run).
    expect(outcome.results.map((r) => (r.type === 'error' ? r.code : r.type))).toEqual(['INVALID_JSON']);
    expect(counts).toEqual({
      total: 4,
      perTool: new Map([
        ['read', 3],
        ['write', 1],
      ]),
      invalidPerTool: new Map([['write', 1]]),
    });
  });

  it('asks the tool’s hook first; deny beats ask beats run', async () => {
    const deny: CallDecision = { type: 'deny', reason: 'no' };
    const cases: Array<[CallDecision, CallDecision, string]> = [
      [ask, deny, 'deny'],
      [deny, ask, 'deny'],
      [run, ask, 'ask'],
      [ask, run, 'ask'],
      [run, run, 'run'],
    ];
    for (const [toolSays, policySays, expected] of cases) {
      const order: string[] = [];
      const { list } = readWriteTools(() => {
        order.push('tool');
        return toolSays;
      });
      const result = await executeToolCalls({
        messages: [user],
        response: assistantWithCalls([{ name: 'read', arguments: { n: 1 } }]),
        tools: list,
        decide: () => {
          order.push('policy');
          return policySays;
        },
      });
      const got =
        result.interrupted !== undefined ? 'ask' : result.results[0]?.type === 'error' ? 'deny' : 'run';
      expect(got).toBe(expected);
      // A tool that denies settles it: the policy is not asked.
      expect(order).toEqual(toolSays.type === 'deny' ? ['tool'] : ['tool', 'policy']);
    }
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('policy store down');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('policy store down'))],
    ['answers nonsense', () => ({ type: 'maybe' }) as unknown as CallDecision],
    ['returns nothing (a forgotten return)', () => undefined as unknown as CallDecision],
    ['answers a boolean', () => true as unknown as CallDecision],
    ['denies without a reason', () => ({ type: 'deny' }) as unknown as CallDecision],
    ['gives a reason that is not text', () => ({ type: 'deny', reason: 42 }) as unknown as CallDecision],
    ['asks with a reason that is not text', () => ({ type: 'ask', reason: 42 }) as unknown as CallDecision],
    [
      'answers with a throwing getter',
      () =>
        ({
          get type(): string {
            throw new Error('getter');
          },
        }) as unknown as CallDecision,
    ],
  ])('a hook that %s is a caller defect: CallbackError (decide), and no call runs', async (_name, hook) => {
    const { list, ran } = readWriteTools();
    const error = await executeToolCalls({
      messages: [user],
      response,
      tools: list,
      decide: hook,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ code: 'CALLBACK_FAILED', callback: 'decide' });
    expect((error as CallbackError).partialResult?.messages).toEqual([user]);
    expect(ran).toEqual([]);
  });

  it('is refused at definition time when it is not a function', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        effect: 'read',
        execute: () => 1,
        decide: 'yes' as unknown as Decide,
      }),
    ).toThrow('decide must be a function');
    expect(() => createToolRuntime({ tools: [], decide: 1 as unknown as Decide })).toThrow(
      'Invalid option decide',
    );
  });

  it.each(['authorize', 'beforeToolCall'])(
    'refuses a tool that still declares %s, which would otherwise be dropped',
    (old) => {
      const definition = { name: 't', description: 'd', effect: 'read', execute: () => 1, [old]: () => true };
      expect(() => defineTool(definition as never)).toThrow(`${old} is now decide(call, context)`);
      expect(() => createToolRuntime({ tools: [], [old]: () => true } as never)).toThrow(
        `Invalid option ${old}: is not an option of createToolRuntime`,
      );
    },
  );
});

// Permissions: `decide(call, context)` decides from the caller's data (roles, a tenant), never from what
// the model says; a denial tells the model nothing about why, and the audit event keeps the reason.

const tenantUser: Message = { role: 'user', content: 'Delete the invoices of tenant t2; I am an admin.' };

function invoiceTools(decide?: Decide) {
  const ran: string[] = [];
  const tools = [
    defineTool({
      name: 'deleteInvoice',
      description: 'Deletes an invoice.',
      effect: 'write',
      input: { type: 'object', properties: { tenant: { type: 'string' }, id: { type: 'string' } } },
      ...(decide === undefined ? {} : { decide }),
      execute: ({ id }: { id: string }) => {
        ran.push(`delete ${id}`);
        return { deleted: id };
      },
    }),
    defineTool({
      name: 'listInvoices',
      description: 'Lists invoices.',
      effect: 'read',
      execute: () => {
        ran.push('list');
        return [];
      },
    }),
  ];
  return { tools, ran };
}

const invoiceResponse = assistantWithCalls([
  { name: 'deleteInvoice', arguments: { tenant: 't2', id: 'inv-9', role: 'admin' } },
  { name: 'listInvoices', arguments: {} },
]);

/** Only an admin deletes, and only in their own tenant: read from the caller's data. */
const adminsOfTheirTenant: Decide = (call, { data }) => {
  const { roles, tenant } = data as { roles: string[]; tenant: string };
  if (call.tool.effect === 'read') return run;
  if (!roles.includes('admin')) return { type: 'deny', reason: `user lacks role admin for ${call.toolName}` };
  return (call.arguments as { tenant?: string }).tenant === tenant
    ? run
    : { type: 'deny', reason: `tenant ${tenant} may not touch another tenant` };
};

describe('decide: permissions', () => {
  it('sees the validated call and the caller’s data, not the model’s claims; a denial is PERMISSION_DENIED for the model, the reason is in the audit event only', async () => {
    const { tools, ran } = invoiceTools();
    const recorder = recordEvents();
    const result = await executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      tools,
      decide: adminsOfTheirTenant,
      data: { roles: ['clerk'], tenant: 't1' },
      onEvent: recorder.listener,
    });
    expect(ran).toEqual(['list']);
    expect(result.results[0]).toMatchObject({
      type: 'error',
      code: 'PERMISSION_DENIED',
      errorClass: 'denied',
      content: 'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    });
    expect(JSON.stringify(result.messages)).not.toContain('role admin');
    expect(recorder.ofType('tool-call-end').filter((e) => e.outcome === 'denied')).toEqual([
      expect.objectContaining({
        toolName: 'deleteInvoice',
        toolCallId: 'call_1',
        denialReason: 'user lacks role admin for deleteInvoice',
      }),
    ]);
    // One event per happening: the denied call starts and ends, nothing more.
    const denied = recorder.events.filter((e) => 'toolCallId' in e && e.toolCallId === 'call_1');
    expect(denied.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end']);

    const admin = invoiceTools();
    const allowed = await executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      tools: admin.tools,
      decide: adminsOfTheirTenant,
      data: { roles: ['admin'], tenant: 't2' },
    });
    expect(admin.ran.sort()).toEqual(['delete inv-9', 'list']);
    expect(allowed.results.map((r) => r.type)).toEqual(['success', 'success']);
  });

  it('asks the tool’s check first, then the policy’s; a tool that denies settles it', async () => {
    const asked: string[] = [];
    const { tools, ran } = invoiceTools(({ toolName }) => {
      asked.push(`tool:${toolName}`);
      return { type: 'deny', reason: 'no' };
    });
    await executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      tools,
      decide: ({ toolName }) => {
        asked.push(`policy:${toolName}`);
        return run;
      },
    });
    expect(asked).toEqual(['tool:deleteInvoice', 'policy:listInvoices']);
    expect(ran).toEqual(['list']);
  });

  it.each([
    ['run', run, 'success'],
    ['a promise of run', Promise.resolve(run), 'success'],
    ['deny', { type: 'deny', reason: 'no' }, 'PERMISSION_DENIED'],
    ['a promise of deny', Promise.resolve({ type: 'deny', reason: 'no' }), 'PERMISSION_DENIED'],
    ['ask', ask, 'interrupted'],
  ])('answers %s', async (_name, answer, expected) => {
    const { tools } = invoiceTools();
    const result = await executeToolCalls({
      messages: [tenantUser],
      response: assistantWithCalls([{ name: 'listInvoices', arguments: {} }]),
      tools,
      decide: () => answer as never,
    });
    const got = result.results[0];
    expect(
      result.interrupted !== undefined ? 'interrupted' : got?.type === 'error' ? got.code : got?.type,
    ).toBe(expected);
  });

  it('a forbidden call never waits for approval (deny beats ask), and an approval grants no permission', async () => {
    const { tools, ran } = invoiceTools();
    const runtime = createToolRuntime({
      tools,
      decide: (call, { data }) =>
        !(data as { admin: boolean }).admin
          ? { type: 'deny', reason: 'not an admin' }
          : call.tool.effect === 'write'
            ? ask
            : run,
    });
    const clerk = await runtime.executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      data: { admin: false },
    });
    expect(clerk.interrupted).toBeUndefined();
    expect(clerk.results[0]).toMatchObject({ code: 'PERMISSION_DENIED' });

    const admin = await runtime.executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      data: { admin: true },
    });
    expect(admin.interrupted?.map((call) => call.toolName)).toEqual(['deleteInvoice']);
    // Approved, but resumed on behalf of a caller who may not: decide is asked again, and says no.
    const digest = argumentsDigest('deleteInvoice', invoiceResponse.toolCalls?.[0]?.arguments ?? '');
    const resumed = await runtime.executeToolCalls({
      messages: admin.messages,
      response: invoiceResponse,
      data: { admin: false },
      decisions: { call_1: { approve: true, argumentsDigest: digest } },
    });
    expect(resumed.results[0]).toMatchObject({ code: 'PERMISSION_DENIED' });
    // The clerk may do nothing; the admin's read ran; the delete never did.
    expect(ran).toEqual(['list']);
  });

  it('deniedText is what the model is told of every call denied before it ran; a bad one is refused when the runtime is made', async () => {
    const { tools } = invoiceTools();
    const result = await executeToolCalls({
      messages: [tenantUser],
      response: invoiceResponse,
      tools,
      decide: ({ tool }) => (tool.effect === 'read' ? run : { type: 'deny', reason: 'reads only' }),
      deniedText: 'You may not do that.',
    });
    expect(result.results[0]?.content).toBe('PERMISSION_DENIED: You may not do that.');
    for (const deniedText of ['', '   ', 'x'.repeat(1001), 42]) {
      expect(() => createToolRuntime({ tools, deniedText: deniedText as string })).toThrow(
        'Invalid option deniedText',
      );
    }
    expect(() => createToolRuntime({ tools, decide: 'admins' as unknown as Decide })).toThrow(
      'Invalid option decide',
    );
  });
});

const payUser: Message = { role: 'user', content: 'Pay the two invoices and show the balance.' };

type NeedsApproval = ToolDefinition<{ amount: number }, unknown>['needsApproval'];

function payTools(needsApproval?: NeedsApproval) {
  const ran: string[] = [];
  const tools = [
    defineTool({
      name: 'pay',
      description: 'Pays an amount.',
      effect: 'write',
      input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      ...(needsApproval === undefined ? {} : { needsApproval }),
      execute: ({ amount }: { amount: number }) => {
        ran.push(`pay ${amount}`);
        return { paid: amount };
      },
    }),
    defineTool({
      name: 'balance',
      description: 'The balance.',
      effect: 'read',
      execute: () => {
        ran.push('balance');
        return { balance: 1000 };
      },
    }),
  ];
  return { tools, ran };
}

const payResponse = assistantWithCalls([
  { name: 'pay', arguments: { amount: 50 }, id: 'p1' },
  { name: 'pay', arguments: { amount: 5000 }, id: 'p2' },
  { name: 'balance', arguments: {}, id: 'b1' },
]);

describe('needsApproval, the tool’s shorthand for ask', () => {
  it('a tool’s rule of its arguments: only the calls it names wait, the others of the response run', async () => {
    const { tools, ran } = payTools(({ amount }) => amount > 100);
    const result = await executeToolCalls({ messages: [payUser], response: payResponse, tools });
    // Concurrent calls: the order they ran in is not the model's (a write waits for its idempotency claim).
    expect(ran.sort()).toEqual(['balance', 'pay 50']);
    expect(result.interrupted).toEqual([
      {
        toolCallId: 'p2',
        toolName: 'pay',
        arguments: '{"amount":5000}',
        argumentsSummary: '{"amount":5000}',
        argumentsDigest: argumentsDigest('pay', '{"amount":5000}'),
        reason: 'needs approval',
      },
    ]);
    expect(result.messages.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual([
      'user',
      'assistant',
      'p1',
      'b1',
    ]);
  });

  it('the policy’s decide sees the whole call and the context; asking of every call makes every call wait, and then none runs', async () => {
    const seen: unknown[] = [];
    const rule: Decide = (call, context) => {
      seen.push([call.toolName, call.arguments, context.data]);
      return call.tool.effect === 'write' ? ask : run;
    };
    const { tools, ran } = payTools();
    const result = await executeToolCalls({
      messages: [payUser],
      response: payResponse,
      tools,
      decide: rule,
      data: 'd',
    });
    expect(ran).toEqual(['balance']);
    expect(result.interrupted?.map((call) => call.toolCallId)).toEqual(['p1', 'p2']);
    expect(seen).toEqual([
      ['pay', { amount: 50 }, 'd'],
      ['pay', { amount: 5000 }, 'd'],
      ['balance', {}, 'd'],
    ]);

    const all = payTools();
    const paused = await executeToolCalls({
      messages: [payUser],
      response: payResponse,
      tools: all.tools,
      decide: () => ask,
    });
    expect(all.ran).toEqual([]);
    expect(paused.results).toEqual([]);
    expect(paused.messages).toEqual([payUser, payResponse]);
  });

  it('a hook that asks gives the reason; a hook that denies settles the call; the rule is then not asked', async () => {
    let asked = 0;
    const { tools } = payTools(() => {
      asked++;
      return true;
    });
    const result = await executeToolCalls({
      messages: [payUser],
      response: payResponse,
      tools,
      decide: ({ toolCallId }) =>
        toolCallId === 'p1'
          ? { type: 'deny', reason: 'blocked payee' }
          : toolCallId === 'p2'
            ? { type: 'ask', reason: 'over the limit' }
            : run,
    });
    expect(asked).toBe(0);
    expect(result.interrupted?.map((call) => [call.toolCallId, call.reason])).toEqual([
      ['p2', 'over the limit'],
    ]);
    expect(result.results.map((r) => (r.type === 'error' ? r.code : r.toolCallId))).toEqual([
      'PERMISSION_DENIED',
      'b1',
    ]);
  });

  it.each([
    ['answers something else than a boolean', () => 'yes'],
    [
      'throws',
      () => {
        throw new Error('rules engine down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('rules engine down'))],
  ])('a rule that %s fails closed: CallbackError (needsApproval), and no call runs', async (_name, rule) => {
    const { tools, ran } = payTools(rule as unknown as NeedsApproval);
    const error = await executeToolCalls({ messages: [payUser], response: payResponse, tools }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ callback: 'needsApproval' });
    expect(ran).toEqual([]);
  });

  it('one call: executeToolCall reports it waiting, and runs it on an approval of its digest only', async () => {
    const { tools, ran } = payTools(true);
    const runtime = createToolRuntime({ tools });
    const call = { id: 'p9', name: 'pay', arguments: '{"amount": 70}' };
    const first = await runtime.executeToolCall(call);
    expect(first).toMatchObject({ type: 'interrupted', pending: { reason: 'needs approval' } });
    const digest = first.type === 'interrupted' ? first.pending.argumentsDigest : '';
    // The digest is of the canonical arguments: the same call, written with other whitespace, matches.
    expect(digest).toBe(argumentsDigest('pay', '{"amount":70}'));
    await expect(
      runtime.executeToolCall(
        { ...call, arguments: '{"amount": 7000}' },
        { decisions: { [call.id]: { approve: true, argumentsDigest: digest } } },
      ),
    ).rejects.toMatchObject({ name: 'ApprovalError', reason: 'arguments-changed' });
    expect(ran).toEqual([]);
    const second = await runtime.executeToolCall(call, {
      decisions: { [call.id]: { approve: true, argumentsDigest: digest } },
    });
    expect(second).toMatchObject({ type: 'answered', isError: false });
    expect(ran).toEqual(['pay 70']);
  });

  it('is refused when it is neither a flag nor a function; the policy has none (its decide asks)', () => {
    expect(() => payTools('always' as unknown as boolean)).toThrow(
      'needsApproval must be true, false or a function',
    );
    expect(() => createToolRuntime({ tools: [], needsApproval: true } as never)).toThrow(
      'Invalid option needsApproval: is not an option of createToolRuntime',
    );
  });
});
