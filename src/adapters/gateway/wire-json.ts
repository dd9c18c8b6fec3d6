import { redactSecrets } from '../../redact/redact.js';

/** A JSON object as a wire carries it. */
export type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Content as the text a guard fingerprints: a string, its text parts joined, else its JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.map((part) =>
      isObject(part) && typeof part.text === 'string' ? part.text : undefined,
    );
    if (texts.every((text) => text !== undefined)) return texts.join('');
  }
  return JSON.stringify(content ?? null) ?? '';
}

/**
 * The content with its secrets removed (by `redact`, `redactSecrets` unless told); undefined when there were
 * none (it stays as it came).
 */
export function redactContent(content: unknown, redact: (text: string) => string = redactSecrets): unknown {
  if (typeof content === 'string') {
    const redacted = redact(content);
    return redacted === content ? undefined : redacted;
  }
  if (!Array.isArray(content)) return undefined;
  let changed = false;
  const parts = content.map((part) => {
    if (!isObject(part) || typeof part.text !== 'string') return part;
    const text = redact(part.text);
    if (text === part.text) return part;
    changed = true;
    return { ...part, text };
  });
  return changed ? parts : undefined;
}
