/** Per column, the width of its widest cell (the header's included). */
export function columnWidths(header: readonly string[], body: readonly (readonly string[])[]): number[] {
  return header.map((cell, column) =>
    Math.max(cell.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
}

/** One row of a pipe table: each cell padded to its column's width, cut with `…` when longer. */
export function pipeRow(cells: readonly string[], widths: readonly number[]): string {
  const fitted = widths.map((width, column) => {
    const cell = cells[column] ?? '';
    return cell.length > width ? `${cell.slice(0, Math.max(width - 1, 0))}…` : cell.padEnd(width);
  });
  return `| ${fitted.join(' | ')} |`;
}

/** The rule under a pipe table's header. */
export function pipeRule(widths: readonly number[]): string {
  return pipeRow(
    widths.map((width) => '-'.repeat(width)),
    widths,
  );
}

/** A whole pipe table: header, rule, rows, each column as wide as its widest cell. */
export function pipeTable(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = columnWidths(header, body);
  return [pipeRow(header, widths), pipeRule(widths), ...body.map((cells) => pipeRow(cells, widths))];
}
