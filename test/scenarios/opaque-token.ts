/**
 * An opaque token, new for each `n`, as a service mints them: random-looking, yet deterministic, so two
 * runs of a scenario compare.
 */
export function opaqueToken(prefix: string, n: number): string {
  return `${prefix}${((n * 2654435761) % 4294967296).toString(36)}${(n * 40503).toString(36)}`;
}

/** A UUID (version 4 in form), new for each `n`, deterministic as `opaqueToken`. */
export function uuidOf(n: number): string {
  const hex = (value: number, width: number) =>
    (Math.floor(value) % 16 ** width).toString(16).padStart(width, '0');
  const a = (n * 2654435761) % 4294967296;
  const b = (n * 40503 * 65537) % 281474976710656;
  return `${hex(a, 8)}-${hex(a / 7, 4)}-4${hex(b, 3)}-a${hex(b / 4096, 3)}-${hex(b * 3, 12)}`;
}
