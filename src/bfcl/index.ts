export type { BfclFunction, BfclLanguage, BfclSchema } from './bfcl-function.js';
export type { BfclNote, BfclRule } from './bfcl-note.js';
export { type BfclAnswerVariant, expandBfclAnswer } from './expand-bfcl-answer.js';
export { fromBfclFunction, fromBfclFunctions } from './from-bfcl-function.js';
export {
  type NormalizeBfclSchemaOptions,
  type NormalizedBfclSchema,
  normalizeBfclSchema,
} from './normalize-bfcl-schema.js';
export { type BfclToolSpec, type ReadBfclFunctionOptions, readBfclFunction } from './read-bfcl-function.js';
