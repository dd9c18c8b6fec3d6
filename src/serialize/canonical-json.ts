/** How `canonicalJson` writes a value: which object keys it leaves out, and whether array order counts. */
export interface CanonicalOptions {
  /** Keys to leave out, at any depth (the result fields a tool's loop hints say do not count). */
  readonly skipKey?: (key: string) => boolean;
  /** Arrays are written with their items sorted: the order does not count. */
  readonly unordered?: boolean;
}

/**
 * JSON text of parsed JSON data (what `JSON.parse` returns) with object keys sorted, so two texts that say
 * the same thing in another key order or with other whitespace between tokens give one text. Strings are
 * kept as they are: whitespace inside a string is content (YAML, code, SQL). Numbers are written as
 * JavaScript prints them (`1.0` and `1e0` are `1`). Deep data throws a `RangeError` (the caller's
 * fallback decides).
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  if (Array.isArray(value)) {
    const items = value.map((item) => canonicalJson(item, options));
    if (options.unordered === true) items.sort();
    return `[${items.join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    let text = '';
    for (const key of Object.keys(record).sort()) {
      // An undefined field is absent, as JSON.stringify writes it.
      if (options.skipKey?.(key) === true || record[key] === undefined) continue;
      text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(record[key], options)}`;
    }
    return `{${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The arguments of a call as the model sent them, in canonical form: the raw text parsed and written by
 * `canonicalJson`. Empty text is `{}` (the chain reads it so); text that is not JSON (or too deep to
 * write) is compared as it is, trimmed.
 */
export function canonicalArguments(raw: string): string {
  const text = raw.trim();
  if (text === '') return '{}';
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text;
  }
}
