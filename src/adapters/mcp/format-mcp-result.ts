import { ResultSerializationError } from '../../core/errors/result-serialization-error.js';
import { serializeValue } from '../../serialize/serialize-value.js';
import type { McpContentPart, McpToolResult } from './read-call-result.js';

/**
 * What the model sees of a result by default: the structured content as deterministic JSON when there is
 * some (the spec's text block then says the same, in a form the model would have to reparse), else the
 * text parts joined by blank lines, images, audio and resources summarized in one line each (their bytes
 * mean nothing to a text model; the caller has them in the value).
 */
export function formatMcpResult(result: McpToolResult): string {
  if (result.structuredContent !== undefined) {
    const serialized = serializeValue(result.structuredContent);
    if (serialized.ok) return serialized.text;
    throw new ResultSerializationError({
      toolName: '',
      reason: serialized.reason,
      path: serialized.path,
      message: `structuredContent cannot be serialized: ${serialized.message}`,
    });
  }
  if (result.content.length === 0) return '(no content)';
  return result.content.map(describePart).join('\n\n');
}

/** One part as a line of text for the model. */
export function describePart(part: McpContentPart): string {
  const type = part.type;
  switch (type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '[text part without text]';
    case 'image':
    case 'audio':
      return `[${type}: ${short(part.mimeType, 'unknown type')}, ${sizeOf(part.data)}]`;
    case 'resource_link':
      return `[resource link: ${short(part.uri, 'no uri')}${typeof part.name === 'string' ? ` (${short(part.name, '')})` : ''}]`;
    case 'resource':
      return describeResource(part.resource);
    default:
      return `[${short(type, 'unknown')} content]`;
  }
}

function describeResource(resource: unknown): string {
  if (typeof resource !== 'object' || resource === null) return '[resource]';
  const { uri, mimeType, text, blob } = resource as Record<string, unknown>;
  const head = `[resource: ${short(uri, 'no uri')}${typeof mimeType === 'string' ? `, ${short(mimeType, '')}` : ''}`;
  if (typeof text === 'string') return `${head}]\n${text}`;
  return `${head}, ${sizeOf(blob)}]`;
}

/** A short label (cut at 200 characters): a server's strings are not trusted to be short. */
function short(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value.slice(0, 200) : fallback;
}

/** The decoded size of base64 data, roughly. */
function sizeOf(data: unknown): string {
  if (typeof data !== 'string') return 'no data';
  return `${Math.floor((data.length * 3) / 4)} bytes`;
}
