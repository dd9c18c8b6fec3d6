import { InvalidOptionsError } from '../errors/invalid-options-error.js';

// Provisional: replaced by the shared option validator (src/options) when it lands.
const MAX_TIMER_MS = 2_147_483_647;

/** An optional integer option: undefined passes (the caller takes the default). */
export function optionalCount(value: unknown, option: string, min: number): number | undefined {
  return value === undefined ? undefined : checkCount(value, option, min);
}

export function checkCount(value: unknown, option: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionsError({ option, message: `must be an integer >= ${min}, got ${String(value)}` });
  }
  return value;
}

export function checkTimer(value: unknown, option: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new InvalidOptionsError({
      option,
      message: `must be an integer between 1 and ${MAX_TIMER_MS} (ms), got ${String(value)}`,
    });
  }
  return value;
}

export function checkPositive(value: unknown, option: string): number {
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidOptionsError({ option, message: `must be a number > 0, got ${String(value)}` });
  }
  return value;
}
