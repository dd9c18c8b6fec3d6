import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCaptured } from './__fixtures__/run-captured.js';
import { runCli } from './run-cli.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs the command line in this process, writing into strings. */
function cli(...args: string[]): Promise<CliResult> {
  return runCaptured((io) => runCli(args, io));
}

/** Runs the real bin in a child process, through the tsx loader. */
async function spawnCli(...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/** The `key=value` lines of a demo, by key. */
function factsOf(stdout: string): Map<string, string> {
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)] as const;
      }),
  );
}

describe('toolwarden demo', () => {
  it('prints every fact of the reference experiment, computed by the chain', async () => {
    const { stdout, code } = await cli('demo');
    expect(code).toBe(0);
    const facts = factsOf(stdout);
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
    expect(facts.get('blank-arguments-result')).toBe('"normalized-empty-arguments"');
    expect(facts.get('invalid-json-result')).toMatch(/^INVALID_JSON: The arguments are not valid JSON/);
    expect(facts.get('invalid-arguments-result')).toBe(
      "INVALID_ARGUMENTS: The arguments do not match the schema of tool 'addNumbers': /a: must be number; /b: is required. Fix them and call again.",
    );
    expect(facts.get('tool-exception-result')).toBe('TOOL_ERROR: business rule rejected the call');
    expect(facts.get('per-tool-limit-executed')).toBe('40');
    expect(facts.get('per-tool-limit-exception')).toBe('ToolCallLimitExceededError');
    expect(facts.get('per-tool-limit-response-count')).toBe('41');
    expect(facts.get('per-tool-limit-last-response')).toBe(
      "TOOL_CALL_LIMIT: Tool call limit (40) exceeded for tool 'counted'. No further calls to this tool are allowed in this turn.",
    );
    expect(facts.get('total-limit-executed')).toBe('2');
    expect(facts.get('total-limit-exception')).toBe('ToolCallLimitExceededError');
    expect(facts.get('total-limit-message')).toBe('Total tool call limit (2) exceeded for this turn');
    expect(facts.get('withheld-error-result')).toBe(
      "TOOL_ERROR: Tool 'leaky' failed; its error text is withheld. Check the arguments and call it again only with changed values: repeating the same call will not help.",
    );
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
      'withheld-error-result',
      'redacted-error-result',
      'transient-retry-result',
      'transient-retry-attempts',
    ]);
  });

  it('demo approvals: a run paused for approval, kept in SQLite, approved in a second process (the refund runs once there), and a replay refused', async () => {
    const { stdout, stderr, code } = await cli('demo', 'approvals');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const facts = factsOf(stdout);
    expect(Object.fromEntries(facts)).toEqual({
      interrupted: 'true',
      pending: '1',
      'pending-call': 'refundOrder {"orderId":"A-1","amount":250}',
      'pending-reason': 'needs approval',
      'ran-before-pause': 'getOrder x1, refundOrder x0',
      store: 'sqlite (a file in a temp folder)',
      'paused-by-pid': String(process.pid),
      'resumed-by-pid': expect.stringMatching(/^\d+$/),
      'resumed-in-another-process': 'true',
      resumed: 'completed',
      executions: '1',
      'replay-refused': 'already-resumed',
    });
    expect(facts.get('resumed-by-pid')).not.toBe(facts.get('paused-by-pid'));
  }, 60_000);

  it('demo durable: a worker killed mid-turn (a DBOS workflow on PostgreSQL), the turn resumed by another, its finished steps skipped', async () => {
    const { stdout, stderr, code } = await cli('demo', 'durable');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const facts = factsOf(stdout);
    expect(Object.fromEntries(facts)).toEqual({
      database: expect.stringMatching(
        /^postgres:\/\/127\.0\.0\.1:5432\/toolwarden_demo_\w+ \(the demo's own, dropped after\)$/,
      ),
      'worker-1-pid': expect.stringMatching(/^\d+$/),
      'worker-1-ran': 'model, getOrder, model, refundOrder',
      'worker-1': 'killed (SIGKILL) after its step tool:refundOrder was checkpointed',
      'worker-2-pid': expect.stringMatching(/^\d+$/),
      'worker-2-skipped':
        'store:get, model, store:reserve, tool:getOrder, model, tool:refundOrder (checkpointed by worker 1: not run again)',
      'worker-2-ran': 'model, emailCustomer, model',
      refunds: '1',
      outcome: 'completed: Refunded order A-1 and emailed the customer.',
      steps:
        'store:get, model, store:reserve, tool:getOrder, model, tool:refundOrder, model, tool:emailCustomer, model, store:set',
    });
    expect(facts.get('worker-2-pid')).not.toBe(facts.get('worker-1-pid'));
  }, 90_000);

  it('demo durable: a database that is not a postgres URL is a usage error', async () => {
    const { code, stderr } = await cli('demo', 'durable', '--database', 'mysql://x');
    expect(code).toBe(2);
    expect(stderr).toContain('toolwarden demo durable [--database <postgres-url>]');
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

describe('toolwarden --version', () => {
  it.each([['--version'], ['-v']])('%s prints the version of package.json', async (flag) => {
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await cli(flag)).toEqual({ stdout: `${version}\n`, stderr: '', code: 0 });
  });

  it('refuses an argument after it', async () => {
    const { code, stderr } = await cli('--version', 'now');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown argument for --version: now');
  });

  it('help lists it', async () => {
    const { code, stdout } = await cli('help');
    expect(code).toBe(0);
    expect(stdout).toContain('--version, -v');
  });
});

describe('toolwarden, end to end (node --import tsx src/cli/main.ts)', { timeout: 15_000 }, () => {
  it('sets the exit code and writes to the real streams', async () => {
    expect(await spawnCli('--version')).toEqual({ stdout: `${version}\n`, stderr: '', code: 0 });
    const unknown = await spawnCli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('unknown command: frobnicate');
  });
});
