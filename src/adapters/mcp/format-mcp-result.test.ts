import { describe, expect, it } from 'vitest';
import { formatMcpResult } from './format-mcp-result.js';
import type { McpContentPart } from './read-call-result.js';

const result = (content: McpContentPart[], structuredContent?: unknown) => ({
  content,
  isError: false,
  ...(structuredContent === undefined ? {} : { structuredContent }),
});

describe('formatMcpResult: what the model sees by default', () => {
  it('shows structured content as deterministic JSON (sorted keys), not the text block that repeats it', () => {
    expect(formatMcpResult(result([{ type: 'text', text: '{"b":1,"a":2}' }], { b: 1, a: 2 }))).toBe(
      '{"a":2,"b":1}',
    );
    expect(formatMcpResult(result([], null))).toBe('null');
  });

  it('joins text parts and summarizes images, audio, links and resources in one line each', () => {
    const text = formatMcpResult(
      result([
        { type: 'text', text: 'first' },
        { type: 'image', data: 'A'.repeat(400), mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
        { type: 'resource', resource: { uri: 'file:///b.txt', mimeType: 'text/plain', text: 'inside b' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA' } },
        { type: 'hologram', data: 'x' },
        { type: 'text' },
      ]),
    );
    expect(text).toBe(
      [
        'first',
        '[image: image/png, 300 bytes]',
        '[audio: audio/wav, 3 bytes]',
        '[resource link: file:///a.txt (a)]',
        '[resource: file:///b.txt, text/plain]\ninside b',
        '[resource: file:///c.bin, 3 bytes]',
        '[hologram content]',
        '[text part without text]',
      ].join('\n\n'),
    );
  });

  it('says so when there is nothing, and cuts a hostile label', () => {
    expect(formatMcpResult(result([]))).toBe('(no content)');
    const long = formatMcpResult(result([{ type: 'image', mimeType: 'x'.repeat(10_000) }]));
    expect(long.length).toBeLessThan(260);
  });
});
