import { describe, expect, it } from 'vitest';
import { fromFinishReason } from './from-finish-reason.js';

describe('fromFinishReason', () => {
  it('keeps V3 { unified, raw }', () => {
    expect(fromFinishReason({ unified: 'tool-calls', raw: 'tool_calls' })).toEqual({
      unified: 'tool-calls',
      raw: 'tool_calls',
    });
    expect(fromFinishReason({ unified: 'length', raw: undefined })).toEqual({
      unified: 'length',
      raw: undefined,
    });
  });

  it("reads V2's string, and its unknown as other", () => {
    expect(fromFinishReason('stop')).toEqual({ unified: 'stop', raw: undefined });
    expect(fromFinishReason('unknown')).toEqual({ unified: 'other', raw: undefined });
  });

  it('makes an unknown unified value other, keeping it as raw when there is none', () => {
    expect(fromFinishReason({ unified: 'interrupted', raw: undefined })).toEqual({
      unified: 'other',
      raw: 'interrupted',
    });
    expect(fromFinishReason({ unified: 'interrupted', raw: 'cancelled' })).toEqual({
      unified: 'other',
      raw: 'cancelled',
    });
  });

  it.each([[undefined], [null], [42], [{ unified: 7, raw: 8 }], [[]]])('reads %j as other', (value) => {
    expect(fromFinishReason(value)).toEqual({ unified: 'other', raw: undefined });
  });
});
