import { ToolInputError } from '../core/errors/tool-input-error.js';
import { TransientToolError } from '../core/errors/transient-tool-error.js';

/**
 * Whether an error's own text was written for the model: a `ToolInputError` (say what to change) or a
 * `TransientToolError` (say what is down), subclasses included, and from any copy of the package. Provenance
 * is the marker their constructor sets, never what an error says about itself: a plain `Error` named
 * `ToolInputError`, one whose `constructor` or prototype was swapped for `ToolInputError`'s, a driver's error,
 * a `TypeError`, a thrown string: none of them is.
 */
export function writtenForModel(error: unknown): boolean {
  return ToolInputError.isInstance(error) || TransientToolError.isInstance(error);
}
