// toolwarden/bfcl: Berkeley Function Calling Leaderboard function definitions imported as tools.
export type { BfclFunction, BfclLanguage, BfclSchema } from './bfcl-function.js';
export { fromBfclFunction, fromBfclFunctions } from './from-bfcl-function.js';
export type { ReadBfclFunctionOptions } from './read-bfcl-function.js';
