import { serializeValue } from '../serialize/serialize-value.js';
import { truncateText } from '../serialize/truncate-text.js';
import { stripTerminalEscapes } from '../util/strip-terminal-escapes.js';

/** Values in report messages are cut to this many characters. */
const PREVIEW_CHARS = 200;

/** A value as a short line of deterministic JSON, for a report read by developers. Never throws. */
export function previewValue(value: unknown, maxChars = PREVIEW_CHARS): string {
  if (value === undefined) return 'undefined';
  const serialized = serializeValue(value);
  const text = serialized.ok ? serialized.text : `(unserializable: ${serialized.message})`;
  return truncateText(text, maxChars).text;
}

/**
 * What was thrown, as one short line: `Name: message` for errors, a preview for anything else. Escape
 * sequences and control characters in the name and message (colours, a cleared screen) are removed: the
 * text reaches a terminal. Never throws.
 */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) {
    try {
      const name = typeof thrown.name === 'string' && thrown.name !== '' ? thrown.name : 'Error';
      const message = typeof thrown.message === 'string' ? thrown.message : '';
      const text = stripTerminalEscapes(message === '' ? name : `${name}: ${message}`);
      return truncateText(text, 500).text;
    } catch {
      return 'an Error whose message cannot be read';
    }
  }
  return `a non-Error value: ${previewValue(thrown)}`;
}
