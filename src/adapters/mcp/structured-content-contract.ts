import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../../core/json-schema.js';
import type { SchemaCompiler } from '../../schema/schema-compiler.js';
import type { McpToolResult } from './read-call-result.js';

/**
 * A tool's `outputSchema` as the output contract of its results: the chain checks a successful result's
 * `structuredContent` against it (never an `isError` one, which is thrown before), emits the violation
 * event and applies `onContractViolation`. A Standard Schema, so the contract reads one field of the value
 * and shows the model-facing JSON Schema as it is. Compiled now: a schema that does not compile throws.
 */
export function structuredContentContract(
  outputSchema: JsonSchema,
  compiler: SchemaCompiler,
): StandardSchemaV1<unknown, McpToolResult> {
  const validate = compiler.compile(outputSchema);
  return {
    '~standard': {
      version: 1,
      vendor: 'toolwarden-mcp',
      validate: (value) => {
        const structured = (value as McpToolResult).structuredContent;
        if (structured === undefined) {
          return {
            issues: [
              { message: 'the tool declares an outputSchema but returned no structuredContent', path: [] },
            ],
          };
        }
        const outcome = validate(structured);
        if (outcome.ok) return { value: value as McpToolResult };
        return {
          issues: outcome.issues.map((issue) => ({
            message: issue.message,
            path: ['structuredContent', ...fromPointer(issue.path)],
          })),
        };
      },
      // Read by `convertStandardSchema`: the schema providers and reports are shown.
      jsonSchema: { input: () => outputSchema, output: () => outputSchema },
    } as StandardSchemaV1.Props<unknown, McpToolResult>,
  };
}

function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
