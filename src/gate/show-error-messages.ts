/**
 * Opens errors of unknown provenance to the model: `true` shows the message of every error of the tool (or
 * of every tool, on the policy), a function shows it for the errors it returns `true` for (an error class of
 * yours, a driver's error you trust), `false` shows none (the default). A message shown is redacted and cut
 * like every text the model reads. It applies to the failures the model may act on (`invalid-input` and
 * `transient`); a denied or fatal failure never shows an error's text.
 */
export type ShowErrorMessages = boolean | ((error: unknown) => boolean);

/** Whether `setting` opens `error`: only `true`, or a function that returns exactly `true`. May throw (the function's own failure). */
export function opensError(setting: ShowErrorMessages, error: unknown): boolean {
  return typeof setting === 'function' ? setting(error) === true : setting === true;
}
