import { canonicalJson } from '../serialize/serialize-value.js';

/**
 * cyrb53: a fast 53-bit string hash (public domain, bryc). Fingerprints only need to tell rounds apart
 * within one conversation, not resist an attacker, so a cryptographic hash would be cost without benefit.
 */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // Two 32-bit halves in base 36: cheaper than printing one 53-bit float, and just as distinct.
  return `${((2097151 & h2) >>> 0).toString(36)}.${(h1 >>> 0).toString(36)}`;
}

/**
 * The meaning of a call: the tool name and its arguments in canonical form (keys sorted, numbers and
 * whitespace normalized), so `{"q": "a  b", "n": 1.0}` and `{"n":1,"q":"a b"}` are the same call.
 * Arguments that are not JSON are compared as text with whitespace normalized. `parsed`, when given, is
 * the arguments already parsed (and validated) by the chain: it saves parsing them again.
 */
export function callFingerprint(toolName: string, rawArguments: string, parsed?: unknown): string {
  if (parsed !== undefined) return `${toolName}#${hash53(canonicalJson(parsed))}`;
  let canonical: string;
  const text = typeof rawArguments === 'string' ? rawArguments : String(rawArguments);
  try {
    canonical = text.trim() === '' ? '{}' : canonicalJson(JSON.parse(text));
  } catch {
    canonical = text.replace(/\s+/g, ' ').trim();
  }
  return `${toolName}#${hash53(canonical)}`;
}

/** The meaning of a result: a digest of the text the model saw. */
export function resultFingerprint(content: string): string {
  return hash53(content);
}
