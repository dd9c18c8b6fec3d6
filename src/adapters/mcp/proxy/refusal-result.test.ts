import { describe, expect, it } from 'vitest';
import { refusalResult, withNote } from './refusal-result.js';
import { refusalOf } from './refusal-text.js';

describe('refusalResult', () => {
  it('is an isError result with the refusal text and its code under _meta, and no structured content', () => {
    const result = refusalResult(refusalOf({ reason: 'session-limit', limit: 3 }));
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'TOOL_CALL_LIMIT: The limit of 3 tool calls in this session is reached; do not call any tool again.',
        },
      ],
      isError: true,
      _meta: { 'toolwarden/code': 'TOOL_CALL_LIMIT' },
    });
    expect(result).not.toHaveProperty('structuredContent');
  });

  it('passes a hostile tool name through the gate: no newline, no bidi override, no secret', () => {
    const name = 'evil\n\u202Etool sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const { text } = refusalOf({ reason: 'loop', tool: name });
    expect(text.startsWith('LOOP_DETECTED: This call to ')).toBe(true);
    expect(text).not.toMatch(/[\n\u202E]/);
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD');
    expect(refusalOf({ reason: 'tool-limit', tool: 'x'.repeat(10_000), limit: 1 }).text.length).toBeLessThan(
      300,
    );
  });
});

describe('withNote', () => {
  it('adds the note as one more text part and leaves everything else as it was', () => {
    const result = {
      content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      structuredContent: { n: 1 },
      _meta: { trace: 't' },
    };
    const noted = withNote(result, 'NOTE from the runtime: …');
    expect(noted).toEqual({
      content: [
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'NOTE from the runtime: …' },
      ],
      structuredContent: { n: 1 },
      _meta: { trace: 't' },
    });
    expect(result.content).toHaveLength(1);
  });
});
