import * as crypto from 'node:crypto';
import { canonicalArguments } from '../serialize/canonical-json.js';

/** `crypto.hash` (Node 20.12 and later) hashes in one call; earlier versions have only `createHash`. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * What an approval is bound to: the SHA-256 (hex) of the tool's name, a NUL and the call's arguments in
 * canonical form (`canonicalArguments`: keys sorted, whitespace between tokens dropped). The same call
 * gives the same digest in any process; another tool or any other argument value gives another.
 */
export function argumentsDigest(toolName: string, rawArguments: string): string {
  return canonicalDigest(toolName, canonicalArguments(rawArguments));
}

/** `argumentsDigest` of arguments already in canonical form. */
export function canonicalDigest(toolName: string, canonical: string): string {
  return sha256Hex(`${toolName}\u0000${canonical}`);
}
