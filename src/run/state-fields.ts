import { RunStateError } from '../core/errors/run-state-error.js';

// The field readers of a saved run state: each checks one value and names its path when it refuses it.

export function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw problem('malformed', path, 'must be an object');
  }
  return value as Record<string, unknown>;
}

export function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw problem('malformed', path, 'must be an array');
  return value;
}

export function text(value: unknown, path: string, max = Number.POSITIVE_INFINITY): string {
  if (typeof value !== 'string') throw problem('malformed', path, 'must be a string');
  if (value.length > max) throw problem('tampered', path, `longer than ${max} characters`);
  return value;
}

export function count(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw problem('malformed', path, 'must be an integer >= 0');
  }
  return value as number;
}

export function only(value: Record<string, unknown>, path: string, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw problem('tampered', `${path}.${key}`, 'an unknown field');
  }
}

export function problem(
  reason: RunStateError['reason'],
  path: string,
  message: string,
  cause?: unknown,
): RunStateError {
  return new RunStateError({
    reason,
    ...(path === '' ? {} : { path }),
    message,
    ...(cause === undefined ? {} : { cause }),
  });
}
