import * as crypto from 'node:crypto';
import { canonicalArguments } from '../serialize/canonical-json.js';

/** One-shot `crypto.hash` (Node 20.12 and later) is a third of `createHash`'s cost; older Node 20 falls back. */
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
  return sha256Hex(`${toolName}\u0000${canonicalArguments(rawArguments)}`);
}
