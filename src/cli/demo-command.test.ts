import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('toolwarden demo', () => {
  it('prints every fact of the reference experiment, computed by the chain', async () => {
    const { stdout, code } = await cli('demo');
    expect(code).toBe(0);
    const facts = new Map(
      stdout
        .trim()
        .split('\n')
        .map((line) => {
          const at = line.indexOf('=');
          return [line.slice(0, at), line.slice(at + 1)] as const;
        }),
    );
    expect(facts.get('registered-tools')).toBe('echo,noArgs,explode,counted,addNumbers,leaky,flaky');
    expect(facts.get('success-tool')).toBe('echo');
    expect(facts.get('success-result')).toBe('"SPRING AI"');
    expect(facts.get('success-history')).toBe('[user, assistant, tool]');
    expect(facts.get('no-tool-call')).toBe('NoToolCallError: No tool call requested by the model response.');
    expect(facts.get('unknown-tool')).toMatch(
      /^UNKNOWN_TOOL: No tool named 'missingTool'\. Available tools: echo, /,
    );
    expect(facts.get('unknown-tool-throw')).toMatch(
      /^UnknownToolError: No tool named 'missingTool' \(tool call call_1\)/,
    );
    expect(facts.get('blank-arguments-calls')).toBe('1');
    expect(facts.get('blank-arguments-result')).toBe('"no arguments needed"');
    expect(facts.get('invalid-json-result')).toMatch(/^INVALID_JSON: The arguments are not valid JSON/);
    expect(facts.get('invalid-arguments-result')).toBe(
      "INVALID_ARGUMENTS: The arguments do not match the schema of tool 'addNumbers': /a: must be number; /b: is required. Fix them and call again.",
    );
    expect(facts.get('tool-exception-result')).toBe('TOOL_ERROR: Explosion in tool: the fuse was lit');
    expect(facts.get('per-tool-limit-executed')).toBe('40');
    expect(facts.get('per-tool-limit-exception')).toBe('ToolCallLimitExceededError');
    expect(facts.get('per-tool-limit-response-count')).toBe('41');
    expect(facts.get('per-tool-limit-last-response')).toBe(
      "TOOL_CALL_LIMIT: Tool call limit (40) exceeded for tool 'counted'. No further calls to this tool are allowed in this turn.",
    );
    expect(facts.get('total-limit-executed')).toBe('2');
    expect(facts.get('total-limit-exception')).toBe('ToolCallLimitExceededError');
    expect(facts.get('total-limit-message')).toBe('Total tool call limit (2) exceeded for this turn');
    const redacted = facts.get('redacted-error-result') ?? '';
    expect(redacted).toMatch(/^TOOL_ERROR: Customer lookup failed/);
    for (const secret of [
      'jane.doe@example.com',
      's3cr3t-pass',
      'db-7.prod.internal.example.net',
      '5432',
      'sk-proj-',
    ]) {
      expect(redacted).not.toContain(secret);
    }
    expect(facts.get('transient-retry-result')).toBe('{"quote":"EUR/USD 1.09"}');
    expect(facts.get('transient-retry-attempts')).toBe('3');
    expect([...facts.keys()]).toEqual([
      'registered-tools',
      'success-tool',
      'success-result',
      'success-history',
      'no-tool-call',
      'unknown-tool',
      'unknown-tool-throw',
      'blank-arguments-calls',
      'blank-arguments-result',
      'invalid-json-result',
      'invalid-arguments-result',
      'tool-exception-result',
      'per-tool-limit-executed',
      'per-tool-limit-exception',
      'per-tool-limit-response-count',
      'per-tool-limit-last-response',
      'total-limit-executed',
      'total-limit-exception',
      'total-limit-message',
      'redacted-error-result',
      'transient-retry-result',
      'transient-retry-attempts',
    ]);
  });

  it('demo loops prints the scenario table and exits 0 when every stop was right', async () => {
    const { stdout, code } = await cli('demo', 'loops');
    expect(code).toBe(0);
    for (const name of [
      'contract-mismatch loop',
      'A-B-A-B oscillation',
      'legitimate 12-step task',
      'distinct useless calls',
    ]) {
      expect(stdout).toContain(name);
    }
    expect(stdout).toMatch(/guarded \(toolwarden defaults\): right 8\/8/);
  });

  it('exits 2 on an unknown demo', async () => {
    const { code, stderr } = await cli('demo', 'nope');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown demo: nope');
  });

  it('exits 2 with usage on an unknown command', async () => {
    const { code, stderr } = await cli('frobnicate');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command: frobnicate');
    expect(stderr).toContain('Usage: toolwarden');
  });
});
