import { describe, expect, it } from 'vitest';
import { OTEL_NAMES } from './otel-names.js';

describe('OTEL_NAMES', () => {
  it('is frozen all the way down', () => {
    const unfrozen: string[] = [];
    const visit = (value: unknown, path: string) => {
      if (typeof value !== 'object' || value === null) return;
      if (!Object.isFrozen(value)) unfrozen.push(path);
      for (const [key, child] of Object.entries(value)) visit(child, `${path}.${key}`);
    };
    visit(OTEL_NAMES, 'OTEL_NAMES');
    expect(unfrozen).toEqual([]);
  });

  it('names each attribute and each metric once', () => {
    const attributes = Object.values(OTEL_NAMES.attributes);
    const metrics = Object.values(OTEL_NAMES.metrics);
    expect(new Set(attributes).size).toBe(attributes.length);
    expect(new Set(metrics).size).toBe(metrics.length);
  });
});
