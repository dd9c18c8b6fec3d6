/** Reads a field of an untrusted value (a thrown error, a loaded module): getters may throw, proxies may lie. */
export function readField(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}
