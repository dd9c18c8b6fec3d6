import { expect } from 'vitest';
import { type AnyTool, defineTool } from '../../tools/define-tool.js';
import type { CheckReport, ToolCheck } from '../check-report.js';
import type { AnyToolDefinition } from '../collect-tools.js';

/** Shared by the checker's unit tests: a definition that passes every check, and report accessors. */
export const strictInput = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
} as const;
export const statusOutput = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
  required: ['status'],
  additionalProperties: false,
} as const;

/** A definition that passes every check; each test breaks one thing. */
export function definition(overrides: Partial<AnyToolDefinition> = {}): AnyToolDefinition {
  return {
    name: 'getStatus',
    description: 'Returns SUCCESS or FAILED.',
    effect: 'read',
    input: strictInput,
    output: statusOutput,
    execute: () => ({ status: 'SUCCESS' }),
    examples: [{ name: 'ok', input: { id: '1' }, output: { status: 'SUCCESS' } }],
    ...overrides,
  };
}

export function tool(overrides: Partial<AnyToolDefinition> = {}): AnyTool {
  return defineTool(definition(overrides));
}

export function only(report: CheckReport): ToolCheck {
  expect(report.tools).toHaveLength(1);
  return report.tools[0] as ToolCheck;
}

export function codes(check: ToolCheck): string[] {
  return check.findings.map((f) => f.code);
}
