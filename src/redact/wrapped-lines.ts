/**
 * Lines that a terminal or a log viewer broke inside a token (`…sk_live_51KzQw8RtYu` / `IoPaSd…`): the
 * break is not part of the text, and left in, it splits a secret into halves that no rule recognises.
 */

const WRAP = /(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/=_-]+)\n([A-Za-z0-9+/=_-]+)/g;
const RANDOM_LOOKING = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{20,}$/;
/** Lines shorter than this end where their writer ended them. */
const MIN_WRAPPED_LINE = 40;

/**
 * The text with each line break removed that ends a line of 40 characters or more inside what is,
 * once joined, one random-looking token of 20 characters or more (digits, lower and upper case).
 */
export function joinWrappedLines(text: string): string {
  if (!text.includes('\n')) return text;
  return text.replace(WRAP, (whole, before: string, after: string, offset: number) => {
    const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const lineLength = offset + before.length - lineStart;
    return lineLength >= MIN_WRAPPED_LINE && RANDOM_LOOKING.test(before + after) ? before + after : whole;
  });
}
