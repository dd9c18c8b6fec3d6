/**
 * Text that may hold the model's words (a tool name), made safe for a terminal: control characters, the
 * escapes a terminal acts on, are written out as `\u001b` instead of being sent.
 */
export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it replaces.
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
