import { isJsonSchemaObject, type JsonSchema } from '../core/json-schema.js';
import {
  createInputValidator,
  type InputValidator,
  isStandardSchema,
  type SchemaInput,
  toProviderJsonSchema,
} from '../schema/input-validator.js';
import { createSchemaCompiler } from '../schema/schema-compiler.js';
import { type AnyTool, defineTool } from '../tools/define-tool.js';
import { checkToolName } from '../tools/tool-name.js';
import type { CheckFinding } from './check-report.js';
import { type AnyToolDefinition, type CheckTarget, isTool } from './collect-tools.js';
import { describeThrown } from './preview-value.js';

/** A check target made ready: the tool to run examples on (when it can be defined), and what was found. */
export interface DefinedForCheck {
  /** The tool's declared name, whatever it is (for the report). */
  readonly name: unknown;
  readonly description: unknown;
  /** Undefined when the definition is broken beyond running its examples. */
  readonly tool: AnyTool | undefined;
  /** What providers would be shown; `invalid` when the input schema does not compile. */
  readonly inputJsonSchema: JsonSchema | undefined | 'invalid';
  readonly hasOutput: boolean;
  readonly exampleCount: number;
  readonly findings: readonly CheckFinding[];
}

const PLACEHOLDER_NAME = 'tool_under_check';
const PLACEHOLDER_DESCRIPTION = 'A tool under check.';

/**
 * A tool passes as it is. A definition is compiled part by part, so each problem gets its own finding,
 * then defined with `defineTool` (with a stand-in for a bad name or description, which are reported by
 * the provider rules), so its examples can still run and any other definition error is reported.
 */
export function defineForCheck(target: CheckTarget): DefinedForCheck {
  if (isTool(target)) {
    return {
      name: target.name,
      description: target.description,
      tool: target,
      inputJsonSchema: target.inputJsonSchema,
      hasOutput: target.validateOutput !== undefined,
      exampleCount: Array.isArray(target.examples) ? target.examples.length : 0,
      findings: [],
    };
  }
  const definition = target as AnyToolDefinition;
  const findings: CheckFinding[] = [];
  const input = compiles(definition.input, 'input', 'INPUT_SCHEMA_INVALID', findings);
  const output = compiles(definition.output, 'output', 'OUTPUT_SCHEMA_INVALID', findings);
  const stand: Record<string, unknown> = { ...definition };
  if (checkToolName(definition.name) !== undefined) stand.name = PLACEHOLDER_NAME;
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    stand.description = PLACEHOLDER_DESCRIPTION;
  }
  if (!input) delete stand.input;
  if (!output) delete stand.output;
  let tool: AnyTool | undefined;
  try {
    tool = defineTool(stand as unknown as AnyToolDefinition);
  } catch (error) {
    findings.push({
      severity: 'error',
      code: 'DEFINITION_INVALID',
      message: `defineTool rejects it: ${describeThrown(error).replace(/^ToolDefinitionError: Tool "[^"]*": /, '')}`,
    });
  }
  const examples: unknown = definition.examples;
  return {
    name: definition.name,
    description: definition.description,
    // Examples only mean something against the schemas that were declared.
    tool: input && output ? tool : undefined,
    inputJsonSchema: !input ? 'invalid' : (tool?.inputJsonSchema ?? providerSchema(definition.input)),
    hasOutput: definition.output !== undefined,
    exampleCount: Array.isArray(examples) ? examples.length : 0,
    findings,
  };
}

/** Compiles one schema on its own; false (with a finding) when it does not compile. */
function compiles(
  schema: unknown,
  field: 'input' | 'output',
  code: 'INPUT_SCHEMA_INVALID' | 'OUTPUT_SCHEMA_INVALID',
  findings: CheckFinding[],
): boolean {
  if (schema === undefined) return true;
  if (!isStandardSchema(schema) && !isJsonSchemaObject(schema)) {
    findings.push({
      severity: 'error',
      code,
      message: `the ${field} schema must be a JSON Schema object or a Standard Schema (zod, valibot, ...), got ${kindOf(schema)}`,
    });
    return false;
  }
  try {
    const validator: InputValidator<unknown> = createInputValidator(
      schema as SchemaInput<unknown>,
      createSchemaCompiler(),
    );
    return typeof validator === 'function';
  } catch (error) {
    findings.push({
      severity: 'error',
      code,
      message: `the ${field} schema does not compile: ${describeThrown(error).replace(/^Error: /, '')}`,
    });
    return false;
  }
}

function providerSchema(input: unknown): JsonSchema | undefined {
  return toProviderJsonSchema((input ?? { type: 'object' }) as SchemaInput<unknown>);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
