/**
 * Text for HTML: `&`, `<`, `>`, quotes and `/` as entities, so a tool name (the model's text) can sit in an
 * element or a quoted attribute and never open a tag, close the attribute or spell a URL (`//`).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'/]/g, (char) => ENTITIES[char] ?? char);
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#47;',
};

/**
 * A value as JSON to sit inside `<script type="application/json">`: `<`, `>`, `&` and `/` as `\u` escapes
 * (still the same JSON), so no text in it can close the tag or spell a URL.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&/]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The first `max` characters (code points, so a surrogate pair is never split) and an ellipsis when the
 * text is longer: a 300-character tool name must not push a table or a chart off the page.
 */
export function truncateText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}
