import { createHash } from 'node:crypto';
import type { Store } from '../../core/store.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { IdempotencySettings } from '../../tools/idempotency-options.js';
import type { IdempotencyScope } from './idempotency-scope.js';

/** Where one call's record lives, and the digest of its arguments the record is checked against. */
export interface IdempotencyKey {
  readonly store: Store;
  readonly recordKey: string;
  /** Where the scope keeps the claim of its latest write. */
  readonly latestKey: string;
  readonly argumentsDigest: string;
}

/**
 * The record of a call: by default keyed by the SHA-256 of its canonical arguments (`canonical`: the
 * `canonicalArguments` of the text the model sent, as `CallIdentity` keeps it: key order and whitespace between tokens do not count), or by the SHA-256 of
 * the tool's own key of its validated arguments; in the scope's session, turn or response. Neither the key
 * nor the arguments are kept anywhere, only their digests. Throws when the tool's key function throws or
 * returns something other than a non-empty string (a defect of the tool).
 */
export function idempotencyKeyOf(
  tool: AnyTool,
  settings: IdempotencySettings,
  call: { readonly canonical: string; readonly args: unknown; readonly data: unknown },
  scope: IdempotencyScope,
): IdempotencyKey {
  const argumentsDigest = sha256(call.canonical);
  let keyDigest = argumentsDigest;
  if (settings.key !== undefined) {
    const own: unknown = settings.key(call.args, {
      toolName: tool.name,
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      data: call.data,
    });
    if (typeof own !== 'string' || own === '') {
      throw new TypeError(`Tool "${tool.name}": idempotency.key must return a non-empty string`);
    }
    keyDigest = sha256(own);
  }
  const { store, key } = scope.recordOf(tool.name, keyDigest);
  return { store, recordKey: key, latestKey: scope.latest().key, argumentsDigest };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
