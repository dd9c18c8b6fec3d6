import { callHash, createHashState, hash53, hashText } from './call-hash.js';

/**
 * The meaning of a call: the tool name and its arguments in canonical form (keys sorted, numbers and
 * whitespace normalized), so `{"q": "a  b", "n": 1.0}` and `{"n":1,"q":"a b"}` are the same call.
 * Arguments that are not JSON are compared as text with whitespace normalized. `parsed`, when given, is
 * the arguments already parsed (and validated) by the chain: it saves parsing them again. The text is
 * `tool#digest`, the form `LoopEvidence.fingerprints[].call` has.
 */
export function callFingerprint(toolName: string, rawArguments: string, parsed?: unknown): string {
  return callFingerprintText(toolName, callHash(createHashState(), toolName, rawArguments, parsed));
}

/** The meaning of a result: a digest of the text the model saw (as in `LoopEvidence.fingerprints[].result`). */
export function resultFingerprint(content: string): string {
  return hashText(hash53(content));
}

/** The text form of a numeric call fingerprint (the guard keeps numbers, evidence shows text). */
export function callFingerprintText(toolName: string, call: number): string {
  return `${toolName}#${hashText(call)}`;
}
