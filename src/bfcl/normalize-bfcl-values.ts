import type { NoteFn } from './bfcl-note.js';
import { describeValue, type JsonType, matchesTypes, stableKey, typesOf } from './bfcl-schema-keywords.js';

/**
 * Rules 4 to 7 of normalizeBfclSchema (enum and default), applied to a node whose `type` is still a list.
 * `source` is the BFCL node, `out` the JSON Schema node being built.
 */
export function normalizeEnum(
  source: Readonly<Record<string, unknown>>,
  out: Record<string, unknown>,
  path: string,
  note: NoteFn,
): void {
  if (source.enum === undefined) return;
  if (!Array.isArray(source.enum) || source.enum.length === 0) {
    note(path, 'enum-type', 'an enum that is not a non-empty list dropped');
    return;
  }
  const seen = new Set<string>();
  const values = source.enum.filter((value: unknown) => {
    const key = stableKey(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (values.length !== source.enum.length) note(path, 'enum-type', 'repeated enum values removed');
  const type = out.type as readonly JsonType[] | undefined;
  if (type?.includes('array') && !values.every(Array.isArray) && !Array.isArray(out.items)) {
    out.items ??= {};
    const items = out.items as Record<string, unknown>;
    const itemTypes = typesOf(items);
    if (items.enum === undefined) {
      items.enum = values;
      if (itemTypes !== undefined && !values.every((value) => matchesTypes(value, itemTypes)))
        delete items.type;
    }
    note(path, 'enum-on-array', 'enum moved to items');
    return;
  }
  out.enum = values;
  if (type !== undefined && !values.every((value) => matchesTypes(value, type))) {
    delete out.type;
    note(path, 'enum-type', `enum values are not all ${type.join(' or ')}: the enum alone decides`);
  }
}

/**
 * Rules 6 and 7, one rule: a parameter never refuses its own default. `default: null` (BFCL's "no default")
 * makes the node accept null and is kept; any other default outside the node's type or enum is dropped
 * with a note, and the rest of the node is kept as it is.
 */
export function normalizeDefault(
  source: Readonly<Record<string, unknown>>,
  out: Record<string, unknown>,
  path: string,
  note: NoteFn,
): void {
  if (!('default' in source)) return;
  const value = source.default;
  const type = out.type as JsonType[] | undefined;
  const values = out.enum as unknown[] | undefined;
  if (value === null) {
    if (type !== undefined && !type.includes('null')) out.type = [...type, 'null'];
    if (values !== undefined && !values.includes(null)) out.enum = [...values, null];
    if (type !== undefined || values !== undefined)
      note(path, 'nullable-default', 'default null: null is accepted');
    out.default = null;
    return;
  }
  const shown = describeValue(value);
  if (type !== undefined && !matchesTypes(value, type))
    note(path, 'dropped-default', `default ${shown} is not of type ${type.join(' or ')}: dropped`);
  else if (values !== undefined && !values.some((v) => stableKey(v) === stableKey(value)))
    note(path, 'dropped-default', `default ${shown} is not one of the enum values: dropped`);
  else out.default = value;
}
