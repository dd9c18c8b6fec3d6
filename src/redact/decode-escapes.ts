/**
 * Text as it reads once its escapes are undone: JSON string escapes (`\"`, `\\`, `\n`, `\u003d`,
 * PHP's `\/`), HTML entities (`&quot;`, `&#61;`), and percent-encoding (`%40`). Secrets hide in all
 * three: a request body quoted inside a JSON error, a form posted back in an error page, a DSN in a query
 * string. Up to three layers are undone (a JSON string inside a JSON string inside a log line).
 */

const MAX_LAYERS = 3;

/** JSON escapes, when the text has some that only JSON writes (so `C:\new` is left alone). */
const JSON_CONTEXT = /\\["/]|\\u[0-9A-Fa-f]{4}|"[^"\n]{0,200}\\[nrt]/;
const JSON_ESCAPE = /\\(["\\/bfnrt])|\\u([0-9A-Fa-f]{4})/g;
const JSON_CHARACTERS: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const HTML_ENTITY = /&(?:(quot|amp|lt|gt|apos|nbsp)|#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6}));/g;
const HAS_HTML_ENTITY = /&(?:quot|amp|lt|gt|apos|nbsp|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});/;
const HAS_PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
const HTML_CHARACTERS: Readonly<Record<string, string>> = {
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
  nbsp: ' ',
};

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** Whether the text has an escape that `decodeEscapes` would undo. */
export function hasEscapes(text: string): boolean {
  return (
    (text.includes('\\') && JSON_CONTEXT.test(text)) ||
    (text.includes('&') && HAS_HTML_ENTITY.test(text)) ||
    (text.includes('%') && HAS_PERCENT_ESCAPE.test(text))
  );
}

/** The text with up to three layers of JSON, HTML and percent escapes undone; the text itself if none. */
export function decodeEscapes(text: string): string {
  let decoded = text;
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

function decodeOnce(text: string): string {
  let out = text;
  if (out.includes('\\') && JSON_CONTEXT.test(out)) {
    out = out.replace(JSON_ESCAPE, (_, single: string | undefined, hex: string | undefined) =>
      single === undefined
        ? String.fromCharCode(Number.parseInt(hex ?? '0', 16))
        : (JSON_CHARACTERS[single] ?? ''),
    );
  }
  if (out.includes('&')) {
    out = out.replace(HTML_ENTITY, (entity, name: string | undefined, decimal?: string, hex?: string) => {
      if (name !== undefined) return HTML_CHARACTERS[name] ?? entity;
      const code = decimal === undefined ? Number.parseInt(hex ?? '', 16) : Number.parseInt(decimal, 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
  }
  if (out.includes('%')) out = out.replace(PERCENT_RUN, decodePercentRun);
  return out;
}

/** A run of `%XX`, decoded as UTF-8; left as it is when it is not valid UTF-8. */
function decodePercentRun(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run;
  }
}
