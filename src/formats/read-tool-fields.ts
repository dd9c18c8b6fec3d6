import { isJsonSchemaObject, type JsonSchema } from '../core/json-schema.js';
import { findSchemaProblem } from './find-schema-problem.js';
import { type ToolFormat, ToolFormatError } from './tool-format-error.js';
import { checkOriginalName } from './tool-name-map.js';

/** What a provider's tool definition must at least be: an object. */
export function readDefinitionObject(
  format: ToolFormat,
  definition: unknown,
): Readonly<Record<string, unknown>> {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    throw new ToolFormatError({
      format,
      path: '',
      problem: `a tool definition must be an object, got ${describeType(definition)}.`,
    });
  }
  return definition as Readonly<Record<string, unknown>>;
}

/** The original name: any non-empty string up to 256 characters (mapping makes it provider-legal). */
export function readToolName(format: ToolFormat, name: unknown, path: string): string {
  if (name === undefined) throw new ToolFormatError({ format, path, problem: 'a name is required.' });
  const problem = checkOriginalName(name);
  if (problem !== undefined) throw new ToolFormatError({ format, toolName: name, path, problem });
  return name as string;
}

/** The description, or `fallback` (a title, else the name) when there is none: every source makes it optional. */
export function readDescription(
  format: ToolFormat,
  toolName: string,
  description: unknown,
  path: string,
  fallback: string,
): string {
  if (description === undefined || description === null) return fallback;
  if (typeof description !== 'string') {
    throw new ToolFormatError({
      format,
      toolName,
      path,
      problem: `the description must be a string, got ${describeType(description)}.`,
    });
  }
  return description.trim() === '' ? fallback : description;
}

/**
 * An object schema (arguments, or an MCP result): a JSON Schema object whose `type`, when given, is
 * `object`, nested at most MAX_SCHEMA_DEPTH levels and free of `__proto__` keys. Absent: `absent`.
 */
export function readObjectSchema(
  format: ToolFormat,
  toolName: string,
  schema: unknown,
  path: string,
  absent: JsonSchema | undefined,
): JsonSchema | undefined {
  if (schema === undefined) return absent;
  if (!isJsonSchemaObject(schema)) {
    throw new ToolFormatError({
      format,
      toolName,
      path,
      problem: `must be a JSON Schema object, got ${describeType(schema)}.`,
    });
  }
  const problem = findSchemaProblem(schema);
  if (problem !== undefined) {
    const where = problem.path === '' ? path : `${path}.${problem.path}`;
    throw new ToolFormatError({ format, toolName, path: where, problem: problem.message });
  }
  const type = schema.type;
  if (type !== undefined && type !== 'object') {
    throw new ToolFormatError({
      format,
      toolName,
      path: `${path}.type`,
      problem: `must describe an object (type "object"): providers pass arguments as one object, got ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : describeType(type)}.`,
    });
  }
  return schema;
}

/** `null`, `an array`, `an object`, `a string`, ...: for messages, never the value itself. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads each definition of a list; an error names the position (`[3].function.name`). */
export function readDefinitionList<T>(
  format: ToolFormat,
  definitions: unknown,
  read: (definition: unknown) => T,
): T[] {
  if (!Array.isArray(definitions)) {
    throw new ToolFormatError({
      format,
      path: '',
      problem: `expected an array of tool definitions, got ${describeType(definitions)}.`,
    });
  }
  return definitions.map((definition: unknown, index) => {
    try {
      return read(definition);
    } catch (error) {
      if (!(error instanceof ToolFormatError)) throw error;
      throw new ToolFormatError({
        format,
        toolName: error.toolName,
        path: error.path === '' ? `[${index}]` : `[${index}].${error.path}`,
        problem: error.problem,
        cause: error.cause,
      });
    }
  });
}

/** A string tag (`type: "function"`) shown quoted and short, or what else it was. */
export function describeTag(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : describeType(value);
}
