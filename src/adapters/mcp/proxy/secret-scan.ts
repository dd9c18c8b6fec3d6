import { redactSecretValues } from '../../../redact/redact.js';
import type { ProxyCallToolResult, ProxyContentPart } from './mcp-shapes.js';

/** The redaction rules a secret scan names, by their marker (`[redacted:key]`): never the secret itself. */
export type SecretRule = 'key' | 'jwt' | 'secret';

const RULES: readonly SecretRule[] = ['key', 'jwt', 'secret'];
const MARKER = /\[redacted:(key|jwt|secret)\]/g;

/** What a scan found: the text (or value) with each secret replaced by its marker, and the rules that matched. */
export interface SecretScan<T> {
  readonly redacted: T;
  /** Empty when nothing was found (then `redacted` is the value given, unchanged). */
  readonly rules: readonly SecretRule[];
}

/**
 * Secrets in a text by the credential rules (`redactSecretValues`: keys and tokens by prefix or shape,
 * JWTs, private keys, `password=` values, credentials in URLs and connection strings), each replaced by
 * its marker; JSON stays JSON. A rule is named when the text has more of its markers after than before,
 * so a text that quotes a marker is not taken for a secret.
 */
export function scanText(text: string, found: Set<SecretRule>): string {
  const redacted = redactSecretValues(text);
  if (redacted === text) return text;
  const before = markerCounts(text);
  const after = markerCounts(redacted);
  let named = false;
  for (const rule of RULES) {
    if ((after.get(rule) ?? 0) > (before.get(rule) ?? 0)) {
      found.add(rule);
      named = true;
    }
  }
  // Changed yet no marker more: the rules replaced a marker's look-alike; still a secret.
  if (!named) found.add('secret');
  return redacted;
}

/** The arguments' JSON text scanned; `redacted` is the arguments with each secret a marker (still JSON). */
export function scanArguments(text: string): SecretScan<string> {
  const found = new Set<SecretRule>();
  const redacted = scanText(text, found);
  return { redacted, rules: ordered(found) };
}

/**
 * A result's text scanned: its text parts, the text of its embedded resources and its `structuredContent`
 * (as JSON). Images, audio, blobs and `_meta` are not text a model reads as words: left as they are.
 */
export function scanResult(result: ProxyCallToolResult): SecretScan<ProxyCallToolResult> {
  const found = new Set<SecretRule>();
  let changed = false;
  const content = result.content.map((part) => {
    const scanned = scanPart(part, found);
    if (scanned !== part) changed = true;
    return scanned;
  });
  let structured = result.structuredContent;
  if (structured !== undefined) {
    const text = jsonText(structured);
    const redacted = text === undefined ? text : scanText(text, found);
    if (redacted !== text && redacted !== undefined) {
      structured = JSON.parse(redacted) as unknown;
      changed = true;
    }
  }
  if (!changed) return { redacted: result, rules: [] };
  const redacted: ProxyCallToolResult = {
    ...result,
    content,
    ...(structured === undefined ? {} : { structuredContent: structured }),
  };
  return { redacted, rules: ordered(found) };
}

function scanPart(part: ProxyContentPart, found: Set<SecretRule>): ProxyContentPart {
  if (part.type === 'text' && typeof part.text === 'string') {
    const text = scanText(part.text, found);
    return text === part.text ? part : { ...part, text };
  }
  const resource = (part as { readonly resource?: { readonly text?: unknown } }).resource;
  if (part.type === 'resource' && typeof resource?.text === 'string') {
    const text = scanText(resource.text, found);
    return text === resource.text ? part : ({ ...part, resource: { ...resource, text } } as ProxyContentPart);
  }
  return part;
}

/** JSON text of a value from the wire; undefined when it cannot be written (too deep). */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function markerCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (!text.includes('[redacted:')) return counts;
  for (const match of text.matchAll(MARKER)) {
    const rule = match[1] as string;
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  return counts;
}

function ordered(found: ReadonlySet<SecretRule>): SecretRule[] {
  return RULES.filter((rule) => found.has(rule));
}
