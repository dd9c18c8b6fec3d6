/** One reason a value failed validation. `path` is a JSON Pointer (`/items/0/id`; `` for the root). */
export interface ValidationIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

/** A check's answer: the value it accepted, or the issues it found. */
export type ValidationOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Turns a Standard Schema path (keys or `{ key }` segments) into a JSON Pointer. */
export function toJsonPointer(
  path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined,
): string {
  if (path === undefined || path.length === 0) return '';
  let pointer = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    pointer += `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return pointer;
}
