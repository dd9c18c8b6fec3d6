import { describe, expect, it } from 'vitest';
import { type CheckReport, createCheckReport, toolCheck } from './check-report.js';
import { renderCheckJson } from './render-check-json.js';
import { renderCheckJunit } from './render-check-junit.js';
import { renderCheckText } from './render-check-text.js';

const report: CheckReport = createCheckReport({
  module: './tools.js',
  tools: [
    toolCheck({ name: 'getWeather', exportName: 'getWeather', examplesRun: 2 }, []),
    toolCheck({ name: 'searchDocs', exportName: 'tools[1]', examplesRun: 1 }, [
      {
        severity: 'warning',
        code: 'STRICT_OPTIONAL_PROPERTY',
        message: 'the object at # must list every property',
      },
    ]),
    toolCheck({ name: 'queryOrderStatus', exportName: 'queryOrderStatus', examplesRun: 1 }, [
      { severity: 'warning', code: 'STRICT_ADDITIONAL_PROPERTIES', message: 'set additionalProperties' },
      {
        severity: 'error',
        code: 'EXAMPLE_CONTRACT_VIOLATION',
        example: 'paid <order>',
        message: 'the result breaks the output contract: /status: is required; the result was {"code":0}',
      },
    ]),
  ],
});

const SKIP_REASON = 'write tool: its examples run only with --run-writes';
/** A write tool whose two examples were checked against the schemas but not run, and a read tool. */
const withSkipped: CheckReport = createCheckReport({
  module: './tools.js',
  tools: [
    toolCheck(
      {
        name: 'refundOrder',
        exportName: 'refundOrder',
        examplesRun: 0,
        skippedExamples: ['paid order', '#2'],
        skipReason: SKIP_REASON,
      },
      [],
    ),
    toolCheck({ name: 'getWeather', exportName: 'getWeather', examplesRun: 2 }, []),
  ],
});

describe('renderCheckText', () => {
  it('a skipped example is on the tool line, its labels and the reason below it, and in the summary', () => {
    expect(renderCheckText(withSkipped)).toBe(
      [
        'toolwarden check ./tools.js',
        '',
        'PASS  refundOrder  2 examples skipped',
        '      skipped paid order, #2: write tool: its examples run only with --run-writes (input and expected output checked against the schemas only)',
        'PASS  getWeather  2 examples',
        '',
        '2 tools: 2 passed, 0 with warnings, 0 failed; 2 examples skipped (not read tools: --run-writes runs them)',
        '',
      ].join('\n'),
    );
  });

  it('one line per tool, then the findings of the tools that did not pass, then a summary', () => {
    expect(renderCheckText(report)).toBe(
      [
        'toolwarden check ./tools.js',
        '',
        'PASS  getWeather  2 examples',
        'WARN  searchDocs  (export tools[1])  1 example',
        '      warning STRICT_OPTIONAL_PROPERTY: the object at # must list every property',
        'FAIL  queryOrderStatus  1 example',
        '      error   EXAMPLE_CONTRACT_VIOLATION [example paid <order>]: the result breaks the output contract: /status: is required; the result was {"code":0}',
        '      warning STRICT_ADDITIONAL_PROPERTIES: set additionalProperties',
        '',
        '3 tools: 1 passed, 1 with warnings, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('a hostile name or message cannot forge lines or send terminal escapes', () => {
    const hostile = createCheckReport({
      module: 'm.js',
      tools: [
        toolCheck({ name: 'evil\nPASS  trusted\u001b[2J', exportName: undefined, examplesRun: 0 }, [
          { severity: 'error', code: 'NAME_ILLEGAL', message: 'line one\r\nPASS  fake\u2028' },
        ]),
      ],
    });
    const text = renderCheckText(hostile);
    expect(text.split('\n').filter((line) => line.startsWith('PASS'))).toEqual([]);
    expect(text).toContain('FAIL  evil\\nPASS  trusted\\u001b[2J  0 examples');
    expect(text).toContain('line one\\r\\nPASS  fake\\u2028');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none is left.
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u2028]/);
  });

  it('module findings come first, and the summary says the module failed', () => {
    const failed = createCheckReport({
      module: 'm.js',
      tools: [],
      moduleFindings: [{ severity: 'error', code: 'NO_TOOLS', message: 'no tools to check' }],
    });
    expect(renderCheckText(failed)).toBe(
      [
        'toolwarden check m.js',
        '',
        'FAIL  (module)',
        '      error   NO_TOOLS: no tools to check',
        '',
        '0 tools: 0 passed, 0 with warnings, 0 failed (and the module failed)',
        '',
      ].join('\n'),
    );
  });
});

describe('renderCheckJson', () => {
  it('is the report, versioned, and parses back to it', () => {
    const parsed = JSON.parse(renderCheckJson(report)) as Record<string, unknown>;
    expect(parsed).toEqual({ format: 'toolwarden-check', version: 1, ...report });
    expect(parsed.status).toBe('fail');
    expect(parsed.summary).toEqual({ tools: 3, passed: 1, warned: 1, failed: 1, examplesSkipped: 0 });
  });

  it('a skipped example is in the JSON: its label, the reason, the count', () => {
    const parsed = JSON.parse(renderCheckJson(withSkipped)) as CheckReport;
    expect(parsed.tools[0]).toMatchObject({
      name: 'refundOrder',
      skippedExamples: ['paid order', '#2'],
      skipReason: SKIP_REASON,
    });
    expect(parsed.summary.examplesSkipped).toBe(2);
  });
});

describe('renderCheckJunit', () => {
  const xml = renderCheckJunit(report);

  it('has one testsuite with one testcase per tool and the counts', () => {
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="toolwarden check" tests="3" failures="1" errors="0" skipped="0">',
      ),
    ).toBe(true);
    expect(xml).toContain('<testsuite name="./tools.js" tests="3" failures="1" errors="0" skipped="0">');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('<testcase classname="toolwarden.check../tools.js" name="getWeather"/>');
  });

  it('a failed tool has one failure typed by its first error, with every error escaped in it', () => {
    expect(xml).toContain(
      '<failure type="EXAMPLE_CONTRACT_VIOLATION" message="error EXAMPLE_CONTRACT_VIOLATION [example paid &lt;order&gt;]: the result breaks the output contract: /status: is required; the result was {&quot;code&quot;:0}">',
    );
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('warnings go to system-out, and do not count as failures', () => {
    expect(xml).toContain(
      '<system-out>warning STRICT_OPTIONAL_PROPERTY: the object at # must list every property</system-out>',
    );
    expect(xml).toContain('name="searchDocs (export tools[1])"');
  });

  it('a skipped example is a skipped testcase of its own, with the reason, counted as skipped', () => {
    const skipped = renderCheckJunit(withSkipped);
    expect(skipped).toContain('tests="4" failures="0" errors="0" skipped="2"');
    expect(skipped).toContain('<testcase classname="toolwarden.check../tools.js" name="refundOrder"/>');
    expect(skipped).toContain(
      `<testcase classname="toolwarden.check../tools.js" name="refundOrder [example paid order]"><skipped message="${SKIP_REASON}"/></testcase>`,
    );
    expect(skipped).toContain('name="refundOrder [example #2]"><skipped ');
  });

  it('module findings are a testcase of their own, counted as a failure', () => {
    const failed = renderCheckJunit(
      createCheckReport({
        module: 'm.js',
        tools: [],
        moduleFindings: [{ severity: 'error', code: 'DEFINITION_INVALID', message: 'Tool "a.b": bad' }],
      }),
    );
    expect(failed).toContain('tests="1" failures="1"');
    expect(failed).toContain('name="(module)"');
    expect(failed).toContain(
      '<failure type="DEFINITION_INVALID" message="error DEFINITION_INVALID: Tool &quot;a.b&quot;: bad">',
    );
  });
});
