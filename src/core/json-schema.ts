/** A JSON Schema document (draft-07 or 2020-12 keywords), as a plain object. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export function isJsonSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('~standard' in value);
}
