/**
 * Cuts long tool-message content to a character budget, with a marker the model can read.
 */

export interface TruncateResult {
  text: string;
  truncated: boolean;
  /** Length of the input, in UTF-16 code units (what `string.length` counts). */
  originalLength: number;
}

/** Below this budget there is no room for a useful marker: the text is only cut. */
export const MIN_CHARS_FOR_TRUNCATION_MARKER = 64;

/**
 * Returns `text` unchanged when it fits in `maxChars` (UTF-16 code units). Otherwise keeps a prefix and
 * appends `…[truncated: showing 99,800 of 250,000 characters]`, the whole result being at most
 * `maxChars` long. When `maxChars` is below {@link MIN_CHARS_FOR_TRUNCATION_MARKER}, the result is just
 * the prefix, without a marker. A surrogate pair is never split (the prefix is one unit shorter instead).
 *
 * `maxChars` is floored; NaN or a negative value is treated as 0; Infinity never truncates. Never throws.
 */
export function truncateText(text: string, maxChars: number): TruncateResult {
  const originalLength = text.length;
  const limit = Number.isNaN(maxChars) || maxChars <= 0 ? 0 : Math.floor(maxChars);
  if (originalLength <= limit) return { text, truncated: false, originalLength };

  if (limit < MIN_CHARS_FOR_TRUNCATION_MARKER) {
    return { text: text.slice(0, safeCut(text, limit)), truncated: true, originalLength };
  }

  // The marker for `limit` is at least as long as the marker for any shorter prefix, so reserving
  // its length keeps prefix + marker within the limit; then take back what a shorter count frees.
  let keep = limit - marker(limit, originalLength).length;
  while (keep + 1 + marker(keep + 1, originalLength).length <= limit) keep++;
  keep = safeCut(text, keep);
  return { text: text.slice(0, keep) + marker(keep, originalLength), truncated: true, originalLength };
}

function marker(shown: number, total: number): string {
  return `…[truncated: showing ${groupThousands(shown)} of ${groupThousands(total)} characters]`;
}

/** Moves a cut back by one when it would fall between the two halves of a surrogate pair. */
function safeCut(text: string, cut: number): number {
  if (cut <= 0) return 0;
  const before = text.charCodeAt(cut - 1);
  const after = text.charCodeAt(cut);
  const isHigh = before >= 0xd800 && before <= 0xdbff;
  const isLow = after >= 0xdc00 && after <= 0xdfff;
  return isHigh && isLow ? cut - 1 : cut;
}

/** 250000 → '250,000', independent of the host locale. */
function groupThousands(value: number): string {
  const digits = String(value);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

const MARKER_AT_END = /…\[truncated: showing [\d,]+ of [\d,]+ characters\]$/;

/**
 * The part of a truncated text the model was shown, without the marker: what two results that look the
 * same to the model share (the marker's total differs between them).
 */
export function withoutTruncationMarker(text: string): string {
  const match = MARKER_AT_END.exec(text);
  return match === null ? text : text.slice(0, match.index);
}
