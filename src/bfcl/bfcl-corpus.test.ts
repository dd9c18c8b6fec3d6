import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createToolRuntime } from '../chain/runtime.js';
import { TOOL_NAME_PATTERN } from '../core/defaults.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import type { ImportedTools } from '../formats/import-tool-spec.js';
import { createToolNameMap } from '../formats/tool-name-map.js';
import { createSchemaCompiler } from '../schema/schema-compiler.js';
import { assistantWithCalls } from '../testing/assistant-with-calls.js';
import {
  EXPECTED_BROKEN_COUNTS,
  EXPECTED_FAILURES,
  EXPECTED_RULE_COUNTS,
  EXPECTED_VALIDATION_COUNTS,
} from './__fixtures__/bfcl-expected-findings.js';
import { deriveBrokenArguments } from './__fixtures__/derive-broken-arguments.js';
import {
  type BfclEntry,
  languageOfFile,
  listExpectedCalls,
  readBfclCorpus,
} from './__fixtures__/read-bfcl-corpus.js';
import type { BfclRule } from './bfcl-note.js';
import { expandBfclAnswer } from './expand-bfcl-answer.js';
import { fromBfclFunctions } from './from-bfcl-function.js';
import { readBfclFunction } from './read-bfcl-function.js';

/**
 * The whole BFCL v4 folder (../shared/corpus/bfcl, see its README.md) through the loader, the validator
 * and the chain. Every count is computed here and asserted exactly, so a change in the normalization
 * or the corpus shows up as a failed assertion with the new number.
 */
const corpus = readBfclCorpus(fileURLToPath(new URL('../../../shared/corpus/bfcl/', import.meta.url)));
const compiler = createSchemaCompiler();

/** What the tools of every entry were called with, in order: the chain checks read and clear it. */
const ran: { originalName: string; args: unknown }[] = [];
const handler = (originalName: string, args: unknown) => {
  ran.push({ originalName, args });
  return 'ok';
};

const toolsByEntry = new Map<string, ImportedTools>();
function toolsOf(file: string, entry: BfclEntry): ImportedTools {
  let tools = toolsByEntry.get(entry.id);
  if (tools === undefined) {
    tools = fromBfclFunctions(entry.function ?? [], {
      handler,
      schemaCompiler: compiler,
      language: languageOfFile(file),
    });
    toolsByEntry.set(entry.id, tools);
  }
  return tools;
}

/** Every single-turn expected call with its entry, for parts 2 and 3. */
const expectedCalls = listExpectedCalls(corpus);

function describeIssues(outcome: ValidationOutcome<unknown>): string {
  return outcome.ok ? '' : outcome.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}

// Each test reads thousands of definitions: seconds of work, more on a loaded machine.
describe('BFCL v4 corpus', { timeout: 30_000 }, () => {
  it('1. compiles every function definition of every data file and func doc, and reports what it normalized', () => {
    const perFile: Record<string, number> = {};
    const rules: Partial<Record<BfclRule, number>> = {};
    const errors: string[] = [];
    let withOutput = 0;
    const compile = (
      key: string,
      where: string,
      functions: readonly unknown[],
      build: () => ImportedTools,
    ) => {
      try {
        const { tools } = build();
        perFile[key] = (perFile[key] ?? 0) + tools.length;
        withOutput += tools.filter((tool) => tool.validateOutput !== undefined).length;
      } catch (error) {
        errors.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const fn of functions) {
        for (const note of readBfclFunction(fn, { language: languageOfFile(key) }).notes) {
          rules[note.rule] = (rules[note.rule] ?? 0) + 1;
        }
      }
    };
    for (const [file, entries] of corpus.dataFiles) {
      for (const entry of entries) compile(file, entry.id, entry.function ?? [], () => toolsOf(file, entry));
    }
    for (const [file, functions] of corpus.funcDocs) {
      const key = `multi_turn_func_doc/${file}`;
      compile(key, key, functions, () => fromBfclFunctions(functions, { handler, schemaCompiler: compiler }));
    }
    expect(errors).toEqual([]);
    const total = Object.values(perFile).reduce((sum, n) => sum + n, 0);
    expect(total).toBe(2487);
    expect(perFile).toEqual({
      'BFCL_v4_irrelevance.json': 240,
      'BFCL_v4_live_simple.json': 258,
      'BFCL_v4_multi_turn_base.json': 0,
      'BFCL_v4_multiple.json': 557,
      'BFCL_v4_parallel.json': 200,
      'BFCL_v4_parallel_multiple.json': 520,
      'BFCL_v4_simple_java.json': 100,
      'BFCL_v4_simple_javascript.json': 50,
      'BFCL_v4_simple_python.json': 400,
      'multi_turn_func_doc/gorilla_file_system.json': 18,
      'multi_turn_func_doc/math_api.json': 17,
      'multi_turn_func_doc/memory_kv.json': 15,
      'multi_turn_func_doc/memory_rec_sum.json': 5,
      'multi_turn_func_doc/memory_vector.json': 12,
      'multi_turn_func_doc/message_api.json': 10,
      'multi_turn_func_doc/posting_api.json': 14,
      'multi_turn_func_doc/ticket_api.json': 9,
      'multi_turn_func_doc/trading_bot.json': 20,
      'multi_turn_func_doc/travel_booking.json': 18,
      'multi_turn_func_doc/vehicle_control.json': 22,
      'multi_turn_func_doc/web_search.json': 2,
    });
    expect(withOutput).toBe(161);
    expect(rules).toEqual(EXPECTED_RULE_COUNTS);
  });

  it('2. validates every single-turn ground-truth call, every acceptable value expanded, against its schema', () => {
    const failures: Record<string, string[]> = {};
    const fail = (key: string, reason: string) => {
      failures[key] = [...(failures[key] ?? []), reason];
    };
    let variants = 0;
    for (const { id, index, name, acceptable, category, entry } of expectedCalls) {
      const { tools, nameMap } = toolsOf(`BFCL_v4_${category}.json`, entry);
      const tool = tools.find((t) => t.name === nameMap.toProvider(name));
      if (tool === undefined) throw new Error(`${id}: no function ${name}`);
      for (const [argument, listed] of Object.entries(acceptable)) {
        if (Array.isArray(listed) && listed.length === 0)
          fail(`${id}#${index}`, `/${argument} lists no acceptable value`);
      }
      for (const variant of expandBfclAnswer(acceptable)) {
        variants++;
        const outcome = tool.validateInput(variant.arguments) as ValidationOutcome<unknown>;
        if (outcome.ok) continue;
        const what =
          variant.varied === undefined
            ? 'preferred values'
            : `${variant.varied.path} ${variant.varied.omitted ? 'omitted' : `= ${JSON.stringify(variant.varied.value)}`}`;
        fail(`${id}#${index}`, `${what} → ${describeIssues(outcome)}`);
      }
    }
    const failed = Object.keys(failures);
    expect({
      calls: expectedCalls.length,
      variants,
      passed: expectedCalls.length - failed.length,
      failed: failed.length,
    }).toEqual(EXPECTED_VALIDATION_COUNTS);
    expect(failures).toEqual(EXPECTED_FAILURES);
  });

  it('3. rejects a broken variant of every valid call in the chain, naming the argument, without running the tool', async () => {
    const kinds: Record<string, number> = {};
    let calls = 0;
    let checked = 0;
    for (const { id, index, name, acceptable, category, entry } of expectedCalls) {
      if (Object.hasOwn(EXPECTED_FAILURES, `${id}#${index}`)) continue;
      calls++;
      const { tools, nameMap } = toolsOf(`BFCL_v4_${category}.json`, entry);
      const providerName = nameMap.toProvider(name) as string;
      const tool = tools.find((t) => t.name === providerName);
      const valid = expandBfclAnswer(acceptable)[0]?.arguments ?? {};
      const broken = deriveBrokenArguments(tool?.inputJsonSchema ?? {}, valid);
      expect(broken.length, id).toBeGreaterThan(0);
      ran.length = 0;
      const { messages } = await createToolRuntime({
        tools,
        maxInvalidAttempts: broken.length + 1,
      }).executeToolCalls({
        messages: [],
        response: assistantWithCalls(
          [valid, ...broken.map((b) => b.arguments)].map((args) => ({ name: providerName, arguments: args })),
        ),
      });
      const [validResult, ...rejected] = messages.slice(1);
      expect(validResult, id).toMatchObject({ isError: false });
      expect(ran, id).toEqual([{ originalName: name, args: valid }]);
      rejected.forEach((message, i) => {
        const { path, kind } = broken[i] as (typeof broken)[number];
        expect(message, `${id} ${kind}`).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
        expect(message?.content, `${id} ${kind}`).toContain(`${path}:`);
        kinds[kind] = (kinds[kind] ?? 0) + 1;
        checked++;
      });
    }
    expect({ calls, checked, ...kinds }).toEqual(EXPECTED_BROKEN_COUNTS);
  });

  it('4. maps every dotted or over-long name to a provider-legal name and back, without collision', () => {
    const names = new Set<string>();
    for (const entries of corpus.dataFiles.values())
      for (const entry of entries) for (const fn of entry.function ?? []) names.add(fn.name);
    for (const functions of corpus.funcDocs.values()) for (const fn of functions) names.add(fn.name);
    const map = createToolNameMap(names);
    const providerNames = new Set(map.entries().map(([, provider]) => provider));
    expect(providerNames.size).toBe(names.size);
    let mapped = 0;
    const hashed: string[] = [];
    for (const name of names) {
      const provider = map.toProvider(name) as string;
      expect(provider).toMatch(TOOL_NAME_PATTERN);
      expect(map.toOriginal(provider)).toBe(name);
      if (provider === name) continue;
      mapped++;
      if (provider !== name.replaceAll('.', '_')) hashed.push(`${name} → ${provider}`);
    }
    // BFCL's own rewrite (`.` → `_`) would give these the name of another function in the corpus
    // (`weather.forecast` and `weather_forecast`); no single entry offers both, but a registry could.
    expect(hashed.sort()).toEqual([
      'car.rental → car_rental_4b725bbf',
      'flight.book → flight_book_e181bda2',
      'hotel.book → hotel_book_506b78ac',
      'restaurant.search → restaurant_search_dbbae474',
      'solve.quadratic_equation → solve_quadratic_equation_5ab35fc7',
      'weather.forecast → weather_forecast_3f66a69e',
    ]);
    const dotted = [...names].filter((name) => name.includes('.')).length;
    const overLong = [...names].filter((name) => name.length > 64).length;
    const longest = Math.max(...[...names].map((name) => name.length));
    expect({ names: names.size, dotted, overLong, longest, mapped }).toEqual({
      names: 1363,
      dotted: 654,
      overLong: 0,
      longest: 57,
      mapped: 654,
    });
  });
});
