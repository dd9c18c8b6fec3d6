import { describe, expect, it } from 'vitest';
import { canElicit } from './can-elicit.js';

describe('canElicit', () => {
  it('is form elicitation declared: form, or an empty elicitation (the first spec version)', () => {
    expect(canElicit({ elicitation: { form: {} } })).toBe(true);
    expect(canElicit({ elicitation: {} })).toBe(true);
    expect(canElicit({ elicitation: { form: {}, url: {} } })).toBe(true);
  });

  it('is not when nothing, or URL mode only, is declared', () => {
    expect(canElicit(undefined)).toBe(false);
    expect(canElicit({})).toBe(false);
    expect(canElicit({ elicitation: { url: {} } })).toBe(false);
  });
});
