import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it, vi } from 'vitest';
import { InvalidOptionsError } from '../core/errors/invalid-options-error.js';
import { defineTool } from '../tools/define-tool.js';
import { codes, definition, only, tool } from './__fixtures__/check-helpers.js';
import { checkTools } from './check-tools.js';

describe('checkTools: the definition and the providers', () => {
  it('nothing to check (no output schema, no examples) is a warning, not a failure', async () => {
    const { output: _, examples: __, ...bare } = definition();
    const report = await checkTools([defineTool(bare)]);
    expect(only(report).findings).toEqual([
      {
        severity: 'warning',
        code: 'NOTHING_TO_CHECK',
        message:
          'nothing to check beyond the definition: declare an output schema (results are then checked before the model sees them) and examples',
      },
    ]);
    expect(report.status).toBe('warn');
  });

  it('an output schema without examples, or examples without an output schema, is a warning', async () => {
    const { output: _, ...noOutput } = definition();
    expect(codes(only(await checkTools([noOutput])))).toEqual(['NO_OUTPUT_SCHEMA']);
    expect(codes(only(await checkTools([definition({ examples: [] })])))).toEqual(['NO_EXAMPLES']);
  });

  it('an illegal name fails with a suggestion; the examples still run under a stand-in', async () => {
    const check = only(await checkTools([definition({ name: 'query.order.status' })]));
    expect(check).toMatchObject({ name: 'query.order.status', status: 'fail', examplesRun: 1 });
    expect(codes(check)).toEqual(['NAME_ILLEGAL']);
    expect(check.findings[0]?.message).toContain('rename it, for example to "query_order_status"');
  });

  it.each([
    ['a 65-character name', 'x'.repeat(65), 'at most 64 characters'],
    ['an empty name', '', 'must not be empty'],
    ['a number', 42, 'must be a string'],
  ])('%s is illegal', async (_, name, problem) => {
    const check = only(await checkTools([definition({ name: name as string })]));
    expect(check.findings[0]).toMatchObject({ code: 'NAME_ILLEGAL' });
    expect(check.findings[0]?.message).toContain(problem);
  });

  it('a missing or blank description fails', async () => {
    for (const description of ['', '   ', undefined]) {
      const check = only(await checkTools([definition({ description: description as string })]));
      expect(codes(check)).toEqual(['DESCRIPTION_MISSING']);
    }
  });

  it('an input schema that does not compile fails, and its examples are not run', async () => {
    const execute = vi.fn();
    const check = only(
      await checkTools([
        definition({ input: { type: 'object', properties: { id: { type: 'strin' } } }, execute }),
      ]),
    );
    expect(codes(check)).toEqual(['INPUT_SCHEMA_INVALID']);
    expect(check.findings[0]?.message).toMatch(
      /^the input schema does not compile: schema is invalid: data\/properties\/id\/type/,
    );
    expect(check.examplesRun).toBe(0);
    expect(execute).not.toHaveBeenCalled();
  });

  it('an output schema that does not compile, or is not a schema, fails', async () => {
    const badKeyword = only(await checkTools([definition({ output: { type: 'object', requird: ['x'] } })]));
    expect(codes(badKeyword)).toEqual(['OUTPUT_SCHEMA_INVALID']);
    expect(badKeyword.findings[0]?.message).toContain('unknown keyword: "requird"');
    const notASchema = only(await checkTools([definition({ output: 'string' as never })]));
    expect(notASchema.findings[0]?.message).toBe(
      'the output schema must be a JSON Schema object or a Standard Schema (zod, valibot, ...), got string',
    );
  });

  it('any other definition error is what defineTool says', async () => {
    const check = only(await checkTools([definition({ timeoutMs: -1 })]));
    expect(check.findings).toEqual([
      expect.objectContaining({
        code: 'DEFINITION_INVALID',
        message: 'defineTool rejects it: timeoutMs must be an integer between 1 and 2147483647, got -1.',
      }),
    ]);
  });

  it('every problem of a definition is reported at once, not only the first', async () => {
    const check = only(
      await checkTools([
        definition({ name: 'a.b', description: '', effect: 'delete' as 'read', examples: [] }),
      ]),
    );
    expect(codes(check)).toEqual([
      'DEFINITION_INVALID',
      'NAME_ILLEGAL',
      'DESCRIPTION_MISSING',
      'NO_EXAMPLES',
    ]);
  });

  it('two tools with the same name both fail', async () => {
    const report = await checkTools([tool(), tool()]);
    expect(report.tools.map(codes)).toEqual([['NAME_DUPLICATE'], ['NAME_DUPLICATE']]);
  });

  it.each([
    ['a string', { type: 'string' }, '"type": "string"'],
    ['a root anyOf', { anyOf: [{ type: 'object' }] }, 'a root "anyOf"'],
  ])('an input schema whose root is %s fails: providers reject it', async (_, input, shown) => {
    const check = only(await checkTools([definition({ input, examples: [] })]));
    expect(codes(check)).toEqual(['INPUT_NOT_OBJECT', 'NO_EXAMPLES']);
    expect(check.status).toBe('fail');
    expect(check.findings[0]?.message).toContain(`providers reject ${shown}`);
  });

  const loose = () =>
    definition({
      input: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: [] },
      examples: [{ input: { id: '1' } }],
    });

  it("OpenAI strict mode is not checked unless asked: an ordinary schema (the README's quickstart) passes", async () => {
    expect(only(await checkTools([loose()]))).toMatchObject({ status: 'pass', findings: [] });
    const quickstart = definition({
      name: 'getWeather',
      input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      output: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
      },
      examples: [],
    });
    expect(codes(only(await checkTools([quickstart])))).toEqual(['NO_EXAMPLES']);
  });

  it("strict: 'openai': what strict mode rejects is an error, since OpenAI refuses such a tool", async () => {
    const check = only(await checkTools([loose()], { strict: 'openai' }));
    expect(check.status).toBe('fail');
    expect([...codes(check)].sort()).toEqual([
      'STRICT_ADDITIONAL_PROPERTIES',
      'STRICT_OPTIONAL_PROPERTY',
      'STRICT_UNSUPPORTED_KEYWORD',
    ]);
    expect(check.findings.every((f) => f.severity === 'error')).toBe(true);
    // A schema made for strict mode passes it.
    expect(only(await checkTools([definition()], { strict: 'openai' })).status).toBe('pass');
  });

  it.each([
    ['strict', { strict: 'anthropic' }],
    ['runWrites', { runWrites: 'yes' }],
  ])('rejects a bad %s option', async (_, options) => {
    await expect(checkTools([definition()], options as never)).rejects.toThrow(InvalidOptionsError);
  });

  it('a Standard Schema without a JSON Schema conversion is refused: providers cannot be shown it', async () => {
    const opaque = {
      '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
    } as StandardSchemaV1;
    const check = only(await checkTools([definition({ input: opaque })]));
    expect(codes(check)).toEqual(['DEFINITION_INVALID', 'INPUT_SCHEMA_UNAVAILABLE']);
    expect(check.findings[0]?.message).toContain('without a JSON Schema converter');
  });

  it('errors come before warnings', async () => {
    const { output: _, ...noOutput } = definition({ name: 'a.b', examples: [{ input: { id: 7 } }] });
    const check = only(await checkTools([noOutput]));
    expect(codes(check)).toEqual(['NAME_ILLEGAL', 'EXAMPLE_INPUT_INVALID', 'NO_OUTPUT_SCHEMA']);
    expect(check.findings.map((f) => f.severity)).toEqual(['error', 'error', 'warning']);
  });

  it('a definition that throws when read is reported alone; the other tools are still checked', async () => {
    const hostile = definition();
    Object.defineProperty(hostile, 'input', {
      enumerable: true,
      get: () => {
        throw new Error('no input for you');
      },
    });
    const report = await checkTools([hostile, tool()]);
    expect(report.tools.map((t) => [t.name, t.status])).toEqual([
      ['(unreadable)', 'fail'],
      ['getStatus', 'pass'],
    ]);
    expect(report.tools[0]?.findings[0]?.message).toBe(
      'the definition cannot be read: Error: no input for you',
    );
  });

  it('nothing at all to check is a module failure', async () => {
    const report = await checkTools([]);
    expect(report.status).toBe('fail');
    expect(report.moduleFindings.map((f) => f.code)).toEqual(['NO_TOOLS']);
  });

  it('names the report and the exports when told', async () => {
    const target = tool();
    const report = await checkTools([target], {
      module: './tools.js',
      exportNames: new Map([[target, 'default[0]']]),
    });
    expect(report.module).toBe('./tools.js');
    expect(only(report).exportName).toBe('default[0]');
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 31])('rejects timeoutMs %s', async (timeoutMs) => {
    await expect(checkTools([tool()], { timeoutMs })).rejects.toThrow(InvalidOptionsError);
  });
});
