import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from './__fixtures__/run-check-command.js';
import { root, spawnCheck } from './__fixtures__/spawn-check.js';
import type { CheckReport } from './check-report.js';

/** Runs `toolwarden check` in this process (vitest loads the TypeScript fixtures), from the repository root. */
const check = (...args: string[]) => runCheck(args);

const fixture = (name: string) => `src/check/__fixtures__/${name}`;

type JsonReport = CheckReport & { format: string; version: number };

function codesByTool(report: CheckReport): Record<string, string[]> {
  return Object.fromEntries(report.tools.map((tool) => [tool.name, tool.findings.map((f) => f.code)]));
}

function lines(text: string): string[] {
  return text.split('\n');
}

describe('toolwarden check: a correct module', () => {
  it('exits 0, one line per tool; a tool exported twice is checked once; strict mode is not checked', async () => {
    const { code, stdout, stderr } = await check(fixture('correct-tools.ts'));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = lines(stdout);
    expect(out[0]).toBe('toolwarden check src/check/__fixtures__/correct-tools.ts');
    expect(out).toContain('PASS  getOrderStatus  3 examples');
    // Optional properties, no additionalProperties: false: fine for every provider without strict: true.
    expect(out).toContain('PASS  searchDocs  1 example');
    expect(out.filter((line) => /^(PASS|WARN|FAIL) /.test(line))).toHaveLength(2);
    expect(stdout).not.toContain('STRICT_');
    expect(out).toContain('2 tools: 2 passed, 0 with warnings, 0 failed');
  });

  it('--strict openai: what OpenAI strict mode rejects fails the tool (exit 1)', async () => {
    const { code, stdout } = await check(fixture('correct-tools.ts'), '--strict', 'openai');
    expect(code).toBe(1);
    const out = lines(stdout);
    expect(out).toContain('PASS  getOrderStatus  3 examples');
    expect(out).toContain('FAIL  searchDocs  1 example');
    expect(stdout).toContain('error   STRICT_OPTIONAL_PROPERTY');
    expect(stdout).toContain('(missing: limit)');
    expect(stdout).toContain('#/properties/query uses "minLength"');
  });

  it('--json: the report as a program reads it', async () => {
    const { code, stdout } = await check(fixture('correct-tools.ts'), '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report).toMatchObject({ format: 'toolwarden-check', version: 1, status: 'pass' });
    expect(report.summary).toEqual({ tools: 2, passed: 2, warned: 0, failed: 0, examplesSkipped: 0 });
    expect(report.tools.find((t) => t.name === 'getOrderStatus')).toEqual({
      name: 'getOrderStatus',
      exportName: 'getOrderStatus',
      status: 'pass',
      findings: [],
      examplesRun: 3,
      skippedExamples: [],
    });
  });
});

describe('toolwarden check: write tools run only with --run-writes', () => {
  const REASON = 'write tool: its examples run only with --run-writes';

  it("text: a write tool's examples are skipped, with the reason; the schema checks still run", async () => {
    const { ran } = await import('./__fixtures__/write-tools.js');
    const before = { ...ran };
    const { code, stdout } = await check(fixture('write-tools.ts'));
    expect(ran).toEqual(before);
    // cancelOrder's examples break the schemas: found without running it.
    expect(code).toBe(1);
    const out = lines(stdout);
    expect(out).toContain('PASS  refundOrder  2 examples skipped');
    expect(out).toContain(
      `      skipped paid order, #2: ${REASON} (input and expected output checked against the schemas only)`,
    );
    expect(out).toContain('FAIL  cancelOrder  2 examples skipped');
    expect(stdout).toContain(
      "error   EXAMPLE_INPUT_INVALID [example number id]: the example's input does not match the input schema: /orderId: must be string",
    );
    expect(stdout).toContain(
      "error   EXAMPLE_OUTPUT_INVALID [example bad output]: the example's output does not match the output schema: /refunded: must be boolean",
    );
    expect(out).toContain(
      '2 tools: 1 passed, 0 with warnings, 1 failed; 4 examples skipped (not read tools: --run-writes runs them)',
    );
  });

  it('--json and --junit: each skipped example with the reason', async () => {
    const json = JSON.parse((await check(fixture('write-tools.ts'), '--json')).stdout) as JsonReport;
    expect(json.tools.find((t) => t.name === 'refundOrder')).toMatchObject({
      status: 'pass',
      examplesRun: 0,
      skippedExamples: ['paid order', '#2'],
      skipReason: REASON,
    });
    expect(json.summary.examplesSkipped).toBe(4);
    const { stdout: xml } = await check(fixture('write-tools.ts'), '--junit');
    expectWellFormedXml(xml);
    expect(xml).toContain('tests="6" failures="1" errors="0" skipped="4"');
    expect(xml).toContain(`name="refundOrder [example paid order]"><skipped message="${REASON}"/>`);
  });

  it('--run-writes: the examples run for real', async () => {
    const { ran } = await import('./__fixtures__/write-tools.js');
    const before = ran.refundOrder;
    const { stdout } = await check(fixture('write-tools.ts'), '--run-writes', '--json');
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.tools.find((t) => t.name === 'refundOrder')).toMatchObject({
      status: 'pass',
      examplesRun: 2,
      skippedExamples: [],
    });
    expect(report.summary.examplesSkipped).toBe(0);
    expect(ran.refundOrder).toBe(before + 2);
  });
});

describe('toolwarden check: each kind of broken tool fails with its reason', () => {
  it('queryOrderStatus promises SUCCESS|FAILED and its example returns {"code":0,"data":{"state":"PAID"}}', async () => {
    const { code, stdout } = await check(fixture('broken/query-order-status.ts'));
    expect(code).toBe(1);
    const out = lines(stdout);
    expect(out).toContain('FAIL  queryOrderStatus  1 example');
    expect(stdout).toContain(
      'error   EXAMPLE_CONTRACT_VIOLATION [example paid order]: the result breaks the output contract: /code: is not an allowed property; /data: is not an allowed property; /status: is required; the result was {"code":0,"data":{"state":"PAID"}}',
    );
    // The enumerated verdict: the right shape with a value outside the set.
    expect(out).toContain('FAIL  queryPaymentStatus  1 example');
    expect(stdout).toContain(
      '/status: must be one of: "SUCCESS", "FAILED"; the result was {"status":"PAID"}',
    );
    expect(out).toContain('2 tools: 0 passed, 0 with warnings, 2 failed');
  });

  it('a tool with no output schema and no examples: nothing to check, a warning (exit 0)', async () => {
    const { code, stdout } = await check(fixture('broken/nothing-to-check.ts'));
    expect(code).toBe(0);
    expect(lines(stdout)).toContain('WARN  lookupCustomer  0 examples');
    expect(stdout).toContain('warning NOTHING_TO_CHECK: nothing to check beyond the definition');
  });

  it('an input schema that does not compile is reported for that tool, with the schema error', async () => {
    const { code, stdout } = await check(fixture('broken/input-schema-does-not-compile.ts'));
    expect(code).toBe(1);
    expect(lines(stdout)).toContain('FAIL  createInvoice  0 examples');
    expect(stdout).toMatch(
      /error {3}INPUT_SCHEMA_INVALID: the input schema does not compile: schema is invalid: data\/properties\/amount\/type must be equal to one of the allowed values/,
    );
  });

  it('an illegal name (query.order.status) fails with a legal suggestion, and its example still runs', async () => {
    const { code, stdout } = await check(fixture('broken/illegal-name.ts'));
    expect(code).toBe(1);
    expect(lines(stdout)).toContain('FAIL  query.order.status  (export queryOrderStatusDotted)  1 example');
    expect(stdout).toContain('error   NAME_ILLEGAL: a tool name may contain only letters, digits');
    expect(stdout).toContain(
      'names must match ^[a-zA-Z0-9_-]{1,64}$; rename it, for example to "query_order_status"',
    );
    expect(stdout).not.toContain('EXAMPLE_');
  });

  it('a defineTool call that throws at import fails the module (exit 1), not the process', async () => {
    const { code, stdout, stderr } = await check(fixture('broken/define-throws-at-import.ts'));
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(lines(stdout)).toContain('FAIL  (module)');
    expect(stdout).toContain(
      'error   DEFINITION_INVALID: a defineTool call threw while the module loaded, so none of its tools can be checked: ToolDefinitionError: Tool "query.order.status": a tool name may contain only letters',
    );
    expect(stdout).toContain('(and the module failed)');
  });
});

describe('toolwarden check: a module with a correct tool and every kind of broken one', () => {
  it('text: one line per tool, details only under the failures', async () => {
    const { code, stdout } = await check(fixture('mixed-tools.ts'));
    expect(code).toBe(1);
    const toolLines = lines(stdout).filter((line) => /^(PASS|WARN|FAIL) /.test(line));
    expect(toolLines).toEqual([
      'FAIL  createInvoice  0 examples',
      'PASS  getOrderStatus  3 examples',
      'WARN  lookupCustomer  0 examples',
      'FAIL  queryOrderStatus  1 example',
      'FAIL  query.order.status  (export queryOrderStatusDotted)  1 example',
    ]);
    const afterPass = lines(stdout)[lines(stdout).indexOf('PASS  getOrderStatus  3 examples') + 1];
    expect(afterPass).toBe('WARN  lookupCustomer  0 examples');
  });

  it('--json: every failure with its code, parseable', async () => {
    const { code, stdout } = await check(fixture('mixed-tools.ts'), '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.status).toBe('fail');
    expect(report.module).toBe('src/check/__fixtures__/mixed-tools.ts');
    expect(report.summary).toEqual({ tools: 5, passed: 1, warned: 1, failed: 3, examplesSkipped: 0 });
    expect(codesByTool(report)).toEqual({
      createInvoice: ['INPUT_SCHEMA_INVALID'],
      getOrderStatus: [],
      lookupCustomer: ['NOTHING_TO_CHECK'],
      queryOrderStatus: ['EXAMPLE_CONTRACT_VIOLATION'],
      'query.order.status': ['NAME_ILLEGAL'],
    });
    const violation = report.tools.find((t) => t.name === 'queryOrderStatus')?.findings[0];
    expect(violation).toMatchObject({ severity: 'error', example: 'paid order' });
    expect(violation?.message).toContain('/status: is required');
  });

  it('--junit: well-formed XML with one testcase per tool and a failure for each broken one', async () => {
    const { code, stdout } = await check(fixture('mixed-tools.ts'), '--junit');
    expect(code).toBe(1);
    expectWellFormedXml(stdout);
    expect(stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(stdout).toContain(
      '<testsuites name="toolwarden check" tests="5" failures="3" errors="0" skipped="0">',
    );
    expect(stdout).toMatch(/<testcase classname="[^"]+" name="getOrderStatus"\/>/);
    expect(stdout.match(/<failure /g)).toHaveLength(3);
    for (const type of ['INPUT_SCHEMA_INVALID', 'EXAMPLE_CONTRACT_VIOLATION', 'NAME_ILLEGAL']) {
      expect(stdout).toContain(`<failure type="${type}"`);
    }
    expect(stdout).toContain('<system-out>warning NOTHING_TO_CHECK: ');
    // The result's quotes are escaped inside the attribute.
    expect(stdout).toContain(
      'the result was {&quot;code&quot;:0,&quot;data&quot;:{&quot;state&quot;:&quot;PAID&quot;}}',
    );
    expect(stdout).toContain('name="query.order.status (export queryOrderStatusDotted)"');
  });
});

describe('toolwarden check: module formats', () => {
  it('.mjs with plain definitions: the checker defines them, a bad one fails alone', async () => {
    const { code, stdout } = await check(fixture('plain-definitions.mjs'));
    expect(code).toBe(1);
    expect(lines(stdout)).toContain('PASS  echo  1 example');
    expect(lines(stdout)).toContain('FAIL  badEffect  0 examples');
    expect(stdout).toContain(
      "DEFINITION_INVALID: defineTool rejects it: effect must be 'read', 'write', 'idempotent-write' or 'unknown', got delete.",
    );
  });

  it('an absolute path works as well as a relative one', async () => {
    const { code, stdout } = await check(join(root, fixture('plain-definitions.mjs')));
    expect(code).toBe(1);
    expect(stdout).toContain('PASS  echo');
  });
});

describe('toolwarden check: hostile input', () => {
  it('a module path that does not exist: exit 2, said on stderr, nothing on stdout', async () => {
    const { code, stdout, stderr } = await check('src/check/__fixtures__/no-such-module.ts');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `toolwarden check: no such file: ${join(root, 'src/check/__fixtures__/no-such-module.ts')}\n`,
    );
  });

  it('a directory: exit 2', async () => {
    const { code, stderr } = await check('src/check/__fixtures__');
    expect(code).toBe(2);
    expect(stderr).toContain('not a file:');
  });

  it('a module that throws on import: could not load (exit 3) with its error, no stack trace', async () => {
    const { code, stdout, stderr } = await check(fixture('hostile/throws-on-import.ts'));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'toolwarden check: could not load: importing src/check/__fixtures__/hostile/throws-on-import.ts threw Error: ORDERS_DB_URL is not set\n',
    );
  });

  it('a module exporting no tools: could not load (exit 3), naming what it does export', async () => {
    const { code, stdout, stderr } = await check(fixture('hostile/no-tools.ts'));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'toolwarden check: could not load: src/check/__fixtures__/hostile/no-tools.ts exports no tools (its exports: answer, config, helper); export tools made by defineTool, their definitions, or an array of them\n',
    );
  });

  it.each([
    [[], 'missing the module to check'],
    [['a.js', 'b.js'], 'expected one module, got 2: a.js b.js'],
    [['a.js', '--json', '--junit'], '--json and --junit cannot be combined'],
    [['a.js', '--timeout-ms', '0'], '--timeout-ms must be an integer from 1 to 2147483647, got 0'],
    [['a.js', '--timeout-ms', '1.5'], '--timeout-ms must be an integer from 1 to 2147483647, got 1.5'],
    [['a.js', '--timeout-ms'], "Option '--timeout-ms <value>' argument missing"],
    [['a.js', '--load-timeout-ms', '0'], '--load-timeout-ms must be an integer from 1 to 2147483647, got 0'],
    [
      ['a.js', '--load-timeout-ms', '10s'],
      '--load-timeout-ms must be an integer from 1 to 2147483647, got 10s',
    ],
    [['a.js', '--yaml'], "Unknown option '--yaml'"],
    [['a.js', '--strict', 'gemini'], '--strict takes openai (the only strict mode checked), got gemini'],
  ])('usage error %j: exit 2 with the reason and the usage', async (args, reason) => {
    const { code, stdout, stderr } = await check(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(reason);
    expect(stderr).toContain('Usage: toolwarden check <module>');
  });

  it('--help explains the formats, the limits, the exit codes and how to check a TypeScript module', async () => {
    const { code, stdout } = await check('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--junit');
    expect(stdout).toContain('--timeout-ms <n>');
    expect(stdout).toContain('--run-writes');
    expect(stdout).toContain('--strict openai');
    expect(stdout).toContain('a write, an unknown effect) is never run unless asked');
    expect(stdout).toContain("NODE_OPTIONS='--import tsx' npx toolwarden check");
    expect(stdout).toContain('--load-timeout-ms <n>');
    expect(stdout).toContain('0  no failures');
    expect(stdout).toContain('3  could not load the module');
    expect(stdout).toContain('4  timed out');
  });
});

// The same command in a child process: what only a real process shows (exit codes, Node's own loaders,
// tsx for a TypeScript module, stray timers and rejections of tool code). These run side by side.
// The command starts tsx, then a process of its own for the check (tsx again): allow for a loaded machine.
describe.concurrent('toolwarden check, end to end (node --import tsx src/cli/main.ts check)', {
  timeout: 60_000,
}, () => {
  it('a correct TypeScript module: exit 0, the report on stdout, nothing on stderr', async () => {
    const { code, stdout, stderr } = await spawnCheck([fixture('correct-tools.ts')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines(stdout)[0]).toBe('toolwarden check src/check/__fixtures__/correct-tools.ts');
    expect(lines(stdout)).toContain('2 tools: 2 passed, 0 with warnings, 0 failed');
  });

  it('a module that throws on import: could not load (exit 3) with its error, no stack trace', async () => {
    const { code, stdout, stderr } = await spawnCheck([fixture('hostile/throws-on-import.ts')]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'toolwarden check: could not load: importing src/check/__fixtures__/hostile/throws-on-import.ts threw Error: ORDERS_DB_URL is not set\n',
    );
  });

  it('.cjs: tools on module.exports are found through the default export', async () => {
    const { code, stdout } = await spawnCheck([fixture('commonjs-tools.cjs')]);
    expect(code).toBe(0);
    expect(lines(stdout)).toContain('PASS  ping  (export default.ping)  1 example');
  });

  it('misbehaving examples: each reported, the hanging one times out, the process still exits promptly', async () => {
    // One example waits on an hour-long timer and ignores its signal: the process still exits by itself.
    const { code, stdout } = await spawnCheck([
      fixture('hostile/misbehaving-examples.ts'),
      '--json',
      '--timeout-ms',
      '150',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as JsonReport;
    expect(codesByTool(report)).toEqual({
      badExampleInput: ['EXAMPLE_INPUT_INVALID'],
      driftingFormat: ['FORMAT_NOT_DETERMINISTIC'],
      leavesRejection: [],
      neverSettles: ['EXAMPLE_TIMEOUT'],
      rejectsObject: ['EXAMPLE_THREW'],
      throwsString: ['EXAMPLE_THREW'],
      wrongOutput: ['EXAMPLE_OUTPUT_MISMATCH'],
    });
    const message = (name: string) => report.tools.find((t) => t.name === name)?.findings[0]?.message;
    expect(message('throwsString')).toBe('execute threw a non-Error value: "upstream said no"');
    expect(message('rejectsObject')).toBe(
      'execute threw a non-Error value: {"reason":"maintenance","status":503}',
    );
    expect(message('neverSettles')).toMatch(/^execute did not settle within 150 ms/);
    expect(message('badExampleInput')).toBe(
      "the example's input does not match the input schema: /id: must be string",
    );
    expect(message('wrongOutput')).toBe(
      "the result differs from the example's output at /totalCents: expected 1200, got 1250",
    );
    // The rejection nobody awaited is the module's failure, not a crash.
    expect(report.moduleFindings).toEqual([
      expect.objectContaining({
        code: 'UNCAUGHT_ERROR',
        message: expect.stringContaining('background sync failed'),
      }),
    ]);
  });
});

/** A small well-formedness check: tags balance, attributes are quoted, no raw `<` or bare `&` in text. */
function expectWellFormedXml(xml: string): void {
  expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
  const body = xml.replace(/^<\?xml[^?]*\?>\n/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const match of body.matchAll(token)) {
    const [, closing, name, , selfClosing, text, stray] = match;
    if (stray !== undefined) throw new Error(`raw "<" at ${match.index}`);
    if (text !== undefined) continue;
    if (closing === '/') expect(stack.pop()).toBe(name);
    else if (selfClosing !== '/') stack.push(name as string);
  }
  expect(stack).toEqual([]);
}
