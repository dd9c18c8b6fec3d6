/**
 * Keywords that describe a schema without constraining the value, accepted in every input and output
 * schema although Ajv does not know them. Ajv already knows (and accepts) the JSON Schema annotations:
 * `title`, `description`, `default`, `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`,
 * `contentMediaType`, `contentEncoding`, and OpenAPI's `nullable` (which it validates, with `type`).
 *
 * These are the OpenAPI 3 Schema Object's own fields, which generators (FastAPI, pydantic, OpenAPI
 * exports, MCP servers) leave in the schemas they write. Any other unknown keyword is still refused,
 * because an unknown keyword is most often a misspelled one (`propertees`, `minLenght`, `requird`) that
 * would silently validate nothing.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'example',
  'discriminator',
  'externalDocs',
  'xml',
]);

/** Whether an unknown keyword is an annotation: one of ANNOTATION_KEYWORDS, or any `x-` extension. */
export function isAnnotationKeyword(keyword: string): boolean {
  return keyword.startsWith('x-') || ANNOTATION_KEYWORDS.has(keyword);
}
