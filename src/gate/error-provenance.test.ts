import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createToolRuntime } from '../chain/runtime.js';
import { DEFAULT_MAX_MODEL_MESSAGE_CHARS } from '../core/defaults.js';
import type { ErrorClass } from '../core/error-class.js';
import { FatalToolError } from '../core/errors/fatal-tool-error.js';
import { PermissionDeniedError } from '../core/errors/permission-denied-error.js';
import { ToolInputError } from '../core/errors/tool-input-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';
import { defineTool } from '../tools/define-tool.js';

const SECRET = 'postgres://app:S3cr3t@db-7.prod.internal:5432/crm';
const WITHHELD =
  "TOOL_ERROR: Tool 'lookup' failed; its error text is withheld. Check the arguments and call it again only with changed values: repeating the same call will not help.";

/** What the model reads when `lookup` throws `thrown` (classified `errorClass`, by default the built-in policy's). */
async function seen(thrown: unknown, errorClass?: ErrorClass): Promise<string> {
  const tool = defineTool({
    name: 'lookup',
    description: 'd',
    effect: 'read',
    retries: 0,
    ...(errorClass === undefined ? {} : { classifyError: () => errorClass }),
    execute: () => {
      throw thrown;
    },
  });
  const outcome = await createToolRuntime({ tools: [tool] }).executeToolCall({
    name: 'lookup',
    arguments: {},
  });
  if (outcome.type !== 'answered' || !outcome.isError) throw new Error('expected an error answer');
  expect(outcome.result.type === 'error' && outcome.result.error).toBe(thrown);
  return outcome.content;
}

describe('closed by provenance: text written for the model is shown', () => {
  it('shows a ToolInputError, redacted', async () => {
    expect(await seen(new ToolInputError({ message: 'The date must be in the future.' }))).toBe(
      'TOOL_ERROR: The date must be in the future.',
    );
    const redacted = await seen(new ToolInputError({ message: `No customer at ${SECRET}` }));
    expect(redacted.startsWith('TOOL_ERROR: No customer at ')).toBe(true);
    expect(redacted).not.toContain('S3cr3t');
  });

  it('shows a hand-written subclass of ToolInputError, and one from another copy of the package (the marker)', async () => {
    class CardDeclined extends ToolInputError {
      constructor() {
        super({ message: 'The card was declined: ask for another card.' });
      }
    }
    expect(await seen(new CardDeclined())).toBe('TOOL_ERROR: The card was declined: ask for another card.');
    const otherCopy = Object.assign(new Error('Use an ISO date.'), {
      [Symbol.for('toolwarden.error')]: true,
      [Symbol.for('toolwarden.error.ToolInputError')]: true,
    });
    expect(await seen(otherCopy)).toBe('TOOL_ERROR: Use an ISO date.');
  });

  it("shows a TransientToolError's text after the hint, redacted", async () => {
    const content = await seen(
      new TransientToolError({ message: `rate limited by ${SECRET}, retry in 30 s` }),
    );
    expect(
      content.startsWith("TOOL_UNAVAILABLE: Tool 'lookup' is temporarily unavailable (tried 1 time)."),
    ).toBe(true);
    expect(content).toContain('The tool said: rate limited by');
    expect(content).toContain('retry in 30 s');
    expect(content).not.toContain('S3cr3t');
  });

  it('cuts a huge message written for the model to its limit, after redaction', async () => {
    const content = await seen(new ToolInputError({ message: `${'x'.repeat(1_000_000)} ${SECRET}` }));
    expect(content.length).toBeLessThanOrEqual('TOOL_ERROR: '.length + DEFAULT_MAX_MODEL_MESSAGE_CHARS);
    expect(content).not.toContain('S3cr3t');
  });
});

describe('closed by provenance: text of unknown provenance is withheld', () => {
  const symbol = Symbol(SECRET);
  it.each([
    ['a plain Error from a driver', new Error(`connect ${SECRET} refused`)],
    ['a string', `failed at ${SECRET}`],
    ['an object with a message', { message: SECRET }],
    ['null', null],
    ['undefined', undefined],
    ['a Symbol', symbol],
    ['a BigInt', 12345678901234567890n],
    ['a number', 7],
    ['an Error named ToolInputError', Object.assign(new Error(SECRET), { name: 'ToolInputError' })],
    [
      'an Error whose constructor says ToolInputError',
      Object.assign(new Error(SECRET), { constructor: ToolInputError }),
    ],
    [
      'an Error with ToolInputError’s prototype',
      Object.setPrototypeOf(new Error(SECRET), ToolInputError.prototype),
    ],
    [
      'a ZodError with no argument paths',
      new z.ZodError([{ code: 'custom', path: [], message: SECRET, input: 1 }]),
    ],
  ])('%s', async (_name, thrown) => {
    const content = await seen(thrown);
    expect(content).toBe(WITHHELD);
  });

  it('withholds a TypeError (fatal) and a FatalToolError: only the code and the hint', async () => {
    for (const thrown of [new TypeError(SECRET), new FatalToolError({ message: SECRET })]) {
      expect(await seen(thrown)).toBe(
        "INTERNAL_ERROR: Tool 'lookup' failed with an internal error; do not repeat this call.",
      );
    }
  });

  it('withholds the text of a PermissionDeniedError and of a transient driver error', async () => {
    expect(await seen(new PermissionDeniedError({ message: SECRET }))).toBe(
      'PERMISSION_DENIED: This action is not permitted; do not repeat this call.',
    );
    expect(await seen(Object.assign(new Error(SECRET), { code: 'ECONNRESET' }))).toBe(
      "TOOL_UNAVAILABLE: Tool 'lookup' is temporarily unavailable (tried 1 time). Try again later or continue without it.",
    );
  });

  it('names the argument paths of a ZodError or a ValiError the tool threw, never their messages', async () => {
    const zodError = z
      .object({ since: z.string(), customer: z.object({ id: z.number() }) })
      .safeParse({ since: 1, customer: { id: SECRET } }).error;
    expect(await seen(zodError)).toBe(
      "TOOL_ERROR: Tool 'lookup' failed; its error text is withheld. Check the arguments /customer/id, /since and call it again only with changed values: repeating the same call will not help.",
    );
    let valiError: unknown;
    try {
      v.parse(v.object({ dsn: v.picklist(['a', 'b']) }), { dsn: SECRET });
    } catch (error) {
      valiError = error;
    }
    const content = await seen(valiError);
    expect(content).toContain('Check the arguments /dsn and call it again');
    expect(content).not.toContain('S3cr3t');
  });

  it('a ToolInputError whose message getter throws, or whose message is blank, gets the hint', async () => {
    const throwing = new ToolInputError({ message: 'x' });
    Object.defineProperty(throwing, 'message', {
      get() {
        throw new Error(SECRET);
      },
    });
    expect(await seen(throwing)).toBe(WITHHELD);
    expect(await seen(new ToolInputError({ message: ' \u200b\n\t ' }))).toBe(WITHHELD);
  });

  it('survives errors that fight back: throwing getters everywhere, revoked proxies, hostile issues', async () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error(SECRET);
        },
        getPrototypeOf() {
          throw new Error(SECRET);
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const hostileIssues = {
      issues: [
        null,
        { path: 'not an array' },
        {
          get path() {
            throw new Error(SECRET);
          },
        },
        { path: [{ key: { toString: () => SECRET } }] },
        { path: ['ok'] },
      ],
    };
    const hostileName = Object.defineProperty(new Error(SECRET), 'name', {
      get() {
        throw new Error(SECRET);
      },
    });
    for (const thrown of [trap, revocable.proxy, hostileName]) {
      const content = await seen(thrown, 'invalid-input');
      expect(content).toBe(WITHHELD);
    }
    const content = await seen(hostileIssues, 'invalid-input');
    expect(content).not.toContain('S3cr3t');
    expect(content).toContain('/ok');
  });
});
