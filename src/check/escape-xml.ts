/**
 * Escapes text for XML 1.0 content and attribute values: `& < > " '` become entities, tab, newline
 * and carriage return become character references (so attributes keep them), and characters XML 1.0
 * cannot carry at all (other C0 controls, lone surrogates, U+FFFE, U+FFFF) become U+FFFD.
 */
export function escapeXml(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + (text[i + 1] as string);
        i++;
      } else {
        out += '\ufffd';
      }
      continue;
    }
    out += escapeUnit(code, text[i] as string);
  }
  return out;
}

function escapeUnit(code: number, char: string): string {
  switch (char) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '"':
      return '&quot;';
    case "'":
      return '&apos;';
    case '\t':
      return '&#9;';
    case '\n':
      return '&#10;';
    case '\r':
      return '&#13;';
    default:
      if (code < 0x20 || (code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) {
        return '\ufffd';
      }
      return char;
  }
}
