import { describeThrown } from '../check/preview-value.js';

/** What `node:util` parseArgs threw, as a usage error's text (without its `TypeError [CODE]:` prefix). */
export function argumentErrorMessage(error: unknown): string {
  return describeThrown(error).replace(/^TypeError( \[\w+\])?: /, '');
}
