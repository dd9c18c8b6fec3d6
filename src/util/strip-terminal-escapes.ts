// Escape sequences a terminal acts on: CSI (`ESC [ ... m`: colours, cursor moves, clearing the screen),
// OSC, DCS, SOS, PM and APC strings (`ESC ] 0;title BEL`: window titles, hyperlinks, clipboard writes),
// two-character escapes, and the one-byte C1 CSI.
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what it removes.
  /\u001b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[ -/]*[0-~]?)|\u009b[0-?]*[ -/]*[@-~]?/g;
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;
// C0 and C1 controls, DEL, and the bidirectional overrides and isolates (text that reads other than it is).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from code that is not ours (a tools module's error message, what it prints) made safe for a
 * terminal: escape sequences are removed whole (`\u001b[31mred\u001b[0m` is `red`), and so is every
 * other control character. Line breaks become spaces, unless `keepLineBreaks` (then each is `\n`); a tab
 * stays a tab.
 */
export function stripTerminalEscapes(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, options.keepLineBreaks === true ? '\n' : ' ')
    .replace(CONTROL, '');
}
