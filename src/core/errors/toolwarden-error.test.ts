import { describe, expect, it, vi } from 'vitest';
import { ERROR_CLASSES, type ErrorClassEntry } from './__fixtures__/all-error-classes.js';
import { ToolTimeoutError } from './tool-timeout-error.js';
import { ToolwardenError } from './toolwarden-error.js';

/** True when an instance of `b` is meant to answer to `a.isInstance`: `a` is `b` or `b` extends `a`. */
function isA(b: ErrorClassEntry, a: ErrorClassEntry): boolean {
  return b.errorClass === a.errorClass || inherits(b.errorClass.prototype, a.errorClass.prototype);
}

function inherits(value: object, prototype: object): boolean {
  return Object.prototype.isPrototypeOf.call(prototype, value);
}

const concrete = ERROR_CLASSES.filter((entry) => entry.make !== undefined);

/** Another copy of the package: every module evaluated again, so its classes are not these. */
async function secondCopy(): Promise<readonly ErrorClassEntry[]> {
  vi.resetModules();
  const copy = await import('./__fixtures__/all-error-classes.js');
  return copy.ERROR_CLASSES;
}

/** An object that carries what an instance carries under symbols, and nothing else. */
function markersOf(error: object): object {
  const carried: Record<symbol, unknown> = {};
  for (const key of Object.getOwnPropertySymbols(error))
    carried[key] = (error as Record<symbol, unknown>)[key];
  return carried;
}

describe('isInstance', () => {
  it('answers, for every pair of classes, exactly when A is B or B extends A', () => {
    for (const a of ERROR_CLASSES) {
      for (const b of concrete) {
        const error = b.make?.();
        expect(
          a.errorClass.isInstance(error),
          `${a.errorClass.name}.isInstance(new ${b.errorClass.name})`,
        ).toBe(isA(b, a));
      }
    }
  });

  it('answers the same for errors of a second copy of the package, where instanceof fails', async () => {
    const copies = await secondCopy();
    expect(copies.map((entry) => entry.errorClass.name)).toEqual(
      ERROR_CLASSES.map((entry) => entry.errorClass.name),
    );
    ERROR_CLASSES.forEach((a, ai) => {
      copies.forEach((copyOfB, bi) => {
        const b = ERROR_CLASSES[bi] as ErrorClassEntry;
        if (copyOfB.make === undefined) return;
        const error = copyOfB.make();
        expect(inherits(error, b.errorClass.prototype)).toBe(false);
        const expected = isA(b, a);
        expect(
          a.errorClass.isInstance(error),
          `${a.errorClass.name} of this copy, ${b.errorClass.name} of the other`,
        ).toBe(expected);
        expect(copies[ai]?.errorClass.isInstance(b.make?.())).toBe(expected);
      });
    });
  });

  it('answers for a plain object carrying the markers of a class', () => {
    for (const a of ERROR_CLASSES) {
      for (const b of concrete) {
        const carrier = markersOf(b.make?.() as object);
        expect(a.errorClass.isInstance(carrier)).toBe(isA(b, a));
      }
    }
  });

  it('lets a subclass with its own marker answer for itself, while its parents still answer for it', () => {
    const marker = Symbol.for('toolwarden.error.SlowToolError');
    class SlowToolError extends ToolTimeoutError {
      readonly [marker] = true;
      static override isInstance(value: unknown): value is SlowToolError {
        return (
          ToolwardenError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[marker] === true
        );
      }
    }
    const slow = new SlowToolError({ toolName: 't', timeoutMs: 1 });
    expect([ToolwardenError, ToolTimeoutError, SlowToolError].map((c) => c.isInstance(slow))).toEqual([
      true,
      true,
      true,
    ]);
    expect(SlowToolError.isInstance(new ToolTimeoutError({ toolName: 't', timeoutMs: 1 }))).toBe(false);
    expect(slow).toMatchObject({ code: 'TOOL_TIMEOUT', blame: 'tool' });
  });

  it('answers false, without throwing, for hostile and foreign values', () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('get trap');
        },
        has: () => {
          throw new Error('has trap');
        },
        getPrototypeOf: () => {
          throw new Error('getPrototypeOf trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('getOwnPropertyDescriptor trap');
        },
        ownKeys: () => {
          throw new Error('ownKeys trap');
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const getterThrows = Object.defineProperty({}, Symbol.for('toolwarden.error'), {
      get: () => {
        throw new Error('getter');
      },
    });
    const wrapped = new Proxy(concrete[0]?.make?.() as object, {
      get: () => {
        throw new Error('get trap');
      },
    });
    const hostile: unknown[] = [
      null,
      undefined,
      0,
      Number.NaN,
      '',
      'toolwarden.error',
      true,
      10n,
      Symbol.for('toolwarden.error'),
      () => undefined,
      {},
      [],
      new Error('plain'),
      { [Symbol.for('toolwarden.error')]: 'true' },
      { [Symbol.for('toolwarden.error')]: 1 },
      throwing,
      revocable.proxy,
      getterThrows,
      wrapped,
    ];
    for (const { errorClass } of ERROR_CLASSES) {
      for (const value of hostile) expect(errorClass.isInstance(value)).toBe(false);
    }
  });
});

describe('hasCode', () => {
  it('is true for a toolwarden error of that code only, and false when reading the code throws', () => {
    const timeout = concrete.find((entry) => entry.errorClass.name === 'ToolTimeoutError')?.make?.();
    expect(ToolwardenError.hasCode(timeout, 'TOOL_TIMEOUT')).toBe(true);
    expect(ToolwardenError.hasCode(timeout, 'TOOL_UNAVAILABLE')).toBe(false);
    expect(ToolwardenError.hasCode({ code: 'TOOL_TIMEOUT' }, 'TOOL_TIMEOUT')).toBe(false);
    const codeThrows = Object.defineProperty({ [Symbol.for('toolwarden.error')]: true }, 'code', {
      get: () => {
        throw new Error('getter');
      },
    });
    expect(ToolwardenError.hasCode(codeThrows, 'TOOL_TIMEOUT')).toBe(false);
  });
});
