import { createHash } from 'node:crypto';
import { canonicalArguments } from '../guard/canonical-json.js';

/**
 * What an approval is bound to: the SHA-256 (hex) of the tool's name and the call's arguments in canonical
 * form (`canonicalArguments`: keys sorted, whitespace between tokens dropped). The same call gives the same
 * digest in any process; another tool or any other argument value gives another.
 */
export function argumentsDigest(toolName: string, rawArguments: string): string {
  return createHash('sha256')
    .update(toolName)
    .update('\u0000')
    .update(canonicalArguments(rawArguments))
    .digest('hex');
}
