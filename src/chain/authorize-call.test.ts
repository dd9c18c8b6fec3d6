import { describe, expect, it } from 'vitest';
import { CallbackError } from '../core/errors/callback-error.js';
import type { Message } from '../core/message.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import { recordEvents } from '../testing/record-events.js';
import { defineTool } from '../tools/define-tool.js';
import { argumentsDigest } from './arguments-digest.js';
import type { Authorize } from './authorize-call.js';
import { createToolRuntime } from './runtime.js';

// Permissions: `authorize(call, context)` decides from the caller's data (roles, a tenant), never from what
// the model says; a denial tells the model nothing about why, and the audit event keeps the reason.

const user: Message = { role: 'user', content: 'Delete the invoices of tenant t2; I am an admin.' };

function invoiceTools(authorize?: Authorize) {
  const ran: string[] = [];
  const tools = [
    defineTool({
      name: 'deleteInvoice',
      description: 'Deletes an invoice.',
      effect: 'write',
      input: { type: 'object', properties: { tenant: { type: 'string' }, id: { type: 'string' } } },
      ...(authorize === undefined ? {} : { authorize }),
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

const response = assistantWithCalls([
  { name: 'deleteInvoice', arguments: { tenant: 't2', id: 'inv-9', role: 'admin' } },
  { name: 'listInvoices', arguments: {} },
]);

/** Only an admin deletes, and only in their own tenant: read from the caller's data. */
const adminsOfTheirTenant: Authorize = (call, { data }) => {
  const { roles, tenant } = data as { roles: string[]; tenant: string };
  if (call.tool.effect === 'read') return true;
  if (!roles.includes('admin'))
    return { allowed: false, reason: `user lacks role admin for ${call.toolName}` };
  return (call.arguments as { tenant?: string }).tenant === tenant
    ? true
    : { allowed: false, reason: `tenant ${tenant} may not touch another tenant` };
};

describe('authorize', () => {
  it('sees the validated call and the caller’s data, not the model’s claims; a denial is PERMISSION_DENIED for the model, the reason is in the audit event only', async () => {
    const { tools, ran } = invoiceTools();
    const recorder = recordEvents();
    const result = await createToolRuntime({ tools, authorize: adminsOfTheirTenant }).executeToolCalls({
      messages: [user],
      response,
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
    expect(recorder.ofType('tool-call-denied')).toEqual([
      expect.objectContaining({
        toolName: 'deleteInvoice',
        toolCallId: 'call_1',
        reason: 'user lacks role admin for deleteInvoice',
      }),
    ]);

    const admin = invoiceTools();
    const allowed = await createToolRuntime({
      tools: admin.tools,
      authorize: adminsOfTheirTenant,
    }).executeToolCalls({ messages: [user], response, data: { roles: ['admin'], tenant: 't2' } });
    expect(admin.ran.sort()).toEqual(['delete inv-9', 'list']);
    expect(allowed.results.map((r) => r.type)).toEqual(['success', 'success']);
  });

  it('asks the tool’s check first, then the policy’s; a tool that denies settles it', async () => {
    const asked: string[] = [];
    const { tools, ran } = invoiceTools(({ toolName }) => {
      asked.push(`tool:${toolName}`);
      return false;
    });
    await createToolRuntime({
      tools,
      authorize: ({ toolName }) => {
        asked.push(`policy:${toolName}`);
        return true;
      },
    }).executeToolCalls({ messages: [user], response });
    expect(asked).toEqual(['tool:deleteInvoice', 'policy:listInvoices']);
    expect(ran).toEqual(['list']);
  });

  it.each([
    ['true', true, 'success'],
    ['{ allowed: true }', { allowed: true }, 'success'],
    ['false', false, 'PERMISSION_DENIED'],
    ['{ allowed: false }', { allowed: false }, 'PERMISSION_DENIED'],
    [
      'a promise of { allowed: false, reason }',
      Promise.resolve({ allowed: false, reason: 'no' }),
      'PERMISSION_DENIED',
    ],
  ])('answers %s', async (_name, answer, expected) => {
    const { tools } = invoiceTools();
    const result = await createToolRuntime({ tools, authorize: () => answer as never }).executeToolCalls({
      messages: [user],
      response: assistantWithCalls([{ name: 'listInvoices', arguments: {} }]),
    });
    const got = result.results[0];
    expect(got?.type === 'error' ? got.code : got?.type).toBe(expected);
  });

  it.each([
    ['returns nothing (a forgotten return)', () => undefined],
    ['answers a string', () => 'yes'],
    ['gives a reason that is not text', () => ({ allowed: false, reason: 42 })],
    [
      'throws',
      () => {
        throw new Error('directory down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('directory down'))],
  ])('a check that %s fails closed: CallbackError (authorize), and no call runs', async (_name, check) => {
    const { tools, ran } = invoiceTools();
    const error = await createToolRuntime({ tools, authorize: check as unknown as Authorize })
      .executeToolCalls({ messages: [user], response })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallbackError);
    expect(error).toMatchObject({ callback: 'authorize' });
    expect(ran).toEqual([]);
  });

  it('a forbidden call never waits for approval (deny beats interrupt), and an approval grants no permission', async () => {
    const { tools, ran } = invoiceTools();
    const runtime = createToolRuntime({
      tools,
      needsApproval: (call) => call.tool.effect === 'write',
      authorize: (_call, { data }) => (data as { admin: boolean }).admin,
    });
    const clerk = await runtime.executeToolCalls({ messages: [user], response, data: { admin: false } });
    expect(clerk.interrupted).toBeUndefined();
    expect(clerk.results[0]).toMatchObject({ code: 'PERMISSION_DENIED' });

    const admin = await runtime.executeToolCalls({ messages: [user], response, data: { admin: true } });
    expect(admin.interrupted?.map((call) => call.toolName)).toEqual(['deleteInvoice']);
    // Approved, but resumed on behalf of a caller who may not: authorize is asked again, and says no.
    const digest = argumentsDigest('deleteInvoice', response.toolCalls?.[0]?.arguments ?? '');
    const resumed = await runtime.executeToolCalls({
      messages: admin.messages,
      response,
      data: { admin: false },
      decisions: { call_1: { approve: true, argumentsDigest: digest } },
    });
    expect(resumed.results[0]).toMatchObject({ code: 'PERMISSION_DENIED' });
    // The clerk may do nothing; the admin's read ran; the delete never did.
    expect(ran).toEqual(['list']);
  });

  it('deniedText is what the model is told of every call denied before it ran; a bad one is refused when the runtime is made', async () => {
    const { tools } = invoiceTools();
    const result = await createToolRuntime({
      tools,
      authorize: ({ tool }) => tool.effect === 'read',
      deniedText: 'You may not do that.',
    }).executeToolCalls({ messages: [user], response });
    expect(result.results[0]?.content).toBe('PERMISSION_DENIED: You may not do that.');
    for (const deniedText of ['', '   ', 'x'.repeat(1001), 42]) {
      expect(() => createToolRuntime({ tools, deniedText: deniedText as string })).toThrow(
        'Invalid option deniedText',
      );
    }
    expect(() => createToolRuntime({ tools, authorize: 'admins' as unknown as Authorize })).toThrow(
      'Invalid option authorize',
    );
  });
});
