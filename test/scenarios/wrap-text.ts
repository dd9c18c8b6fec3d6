/**
 * A text as lines of at most `width` characters, broken between words; the lines after the first start
 * with `indent`. A word longer than a line is left whole on a line of its own.
 */
export function wrapText(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const start = lines.length === 0 ? '' : indent;
    const candidate = line === '' ? `${start}${word}` : `${line} ${word}`;
    if (candidate.length <= width || line === '') line = candidate;
    else {
      lines.push(line);
      line = `${indent}${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
