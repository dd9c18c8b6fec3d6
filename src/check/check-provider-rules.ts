import { TOOL_NAME_PATTERN } from '../core/defaults.js';
import type { JsonSchema } from '../core/json-schema.js';
import { checkToolName } from '../tools/tool-name.js';
import { checkOpenAiStrict } from './check-openai-strict.js';
import type { CheckFinding, StrictMode } from './check-report.js';

export interface ProviderFacts {
  readonly name: unknown;
  readonly description: unknown;
  /**
   * What providers would be shown: undefined for a Standard Schema without a JSON Schema conversion,
   * `invalid` when the schema does not compile (reported already; nothing more to say about it).
   */
  readonly inputJsonSchema: JsonSchema | undefined | 'invalid';
}

/**
 * What the providers require of a tool before a model can call it: a legal name, a description, and an
 * input schema whose root is an object (OpenAI, Anthropic and Gemini reject anything else). With
 * `strict: 'openai'`, OpenAI's strict-mode subset too.
 */
export function checkProviderRules(facts: ProviderFacts, strict: StrictMode | undefined): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const nameProblem = checkToolName(facts.name);
  if (nameProblem !== undefined) {
    findings.push({
      severity: 'error',
      code: 'NAME_ILLEGAL',
      message: `${nameProblem}; names must match ${TOOL_NAME_PATTERN.source}${suggestion(facts.name)}`,
    });
  }
  if (typeof facts.description !== 'string' || facts.description.trim() === '') {
    findings.push({
      severity: 'error',
      code: 'DESCRIPTION_MISSING',
      message: 'a description is required: the model reads it to decide when and how to call the tool',
    });
  }
  const schema = facts.inputJsonSchema;
  if (schema === 'invalid') return findings;
  if (schema === undefined) {
    findings.push({
      severity: 'warning',
      code: 'INPUT_SCHEMA_UNAVAILABLE',
      message:
        'the input is a Standard Schema without a JSON Schema conversion, so providers cannot be shown it (use zod 4 or valibot with @valibot/to-json-schema, or a JSON Schema)',
    });
    return findings;
  }
  if (schema.type !== 'object') {
    findings.push({
      severity: 'error',
      code: 'INPUT_NOT_OBJECT',
      message: `the input schema's root must be { "type": "object" } (providers reject ${describeRoot(schema)}); wrap the arguments in an object`,
    });
    return findings;
  }
  if (strict === 'openai') findings.push(...checkOpenAiStrict(schema));
  return findings;
}

function describeRoot(schema: JsonSchema): string {
  if (schema.type !== undefined) return `"type": ${JSON.stringify(schema.type)}`;
  const combinator = ['anyOf', 'oneOf', 'allOf'].find((key) => key in schema);
  return combinator === undefined ? 'a schema without "type"' : `a root "${combinator}"`;
}

function suggestion(name: unknown): string {
  if (typeof name !== 'string' || name === '') return '';
  const cleaned = name
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return cleaned === '' ? '' : `; rename it, for example to "${cleaned}"`;
}
