/** What serializing a value gives: the text, or why and where it cannot be serialized. */
export type SerializeFailureReason =
  | 'circular'
  | 'function'
  | 'symbol'
  | 'too-deep'
  | 'throwing-getter'
  | 'throwing-toJSON';

export type SerializeOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: SerializeFailureReason; path: string; message: string };

export interface SerializeOptions {
  /** Containers (arrays, objects, maps, sets, typed arrays, errors) nested deeper than this fail. Default 256. */
  maxDepth?: number;
}

/** A failure not tied to one value (an engine limit such as the maximum string length). */
export function internalFailure(path: string, detail: string): SerializeOutcome {
  return {
    ok: false,
    reason: 'too-deep',
    path,
    message: `Cannot serialize the value at ${path === '' ? 'the top level' : path}: ${detail}`,
  };
}

/** A short description of something thrown; never throws itself (the thrown value may be a hostile Proxy). */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) {
      const name = typeof error.name === 'string' ? error.name : 'Error';
      const message = typeof error.message === 'string' ? error.message : '';
      const text = message === '' ? name : `${name}: ${message}`;
      return text.length > 200 ? `${text.slice(0, 200)}…` : text;
    }
    if (typeof error === 'string') return error.length > 200 ? `${error.slice(0, 200)}…` : error;
    return typeof error;
  } catch {
    return 'an unreadable value';
  }
}
