import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../core/json-schema.js';
import type { ValidationOutcome } from '../core/validation-issue.js';
import type { ImportedTools } from '../formats/import-tool-spec.js';
import { createSchemaCompiler } from '../schema/schema-compiler.js';
import { EXPECTED_FAILURES } from './__fixtures__/bfcl-expected-findings.js';
import {
  languageOfFile,
  listBfclDefinitions,
  listExpectedCalls,
  readBfclCorpus,
} from './__fixtures__/read-bfcl-corpus.js';
import { isPlainObject, readTypeName } from './bfcl-schema-keywords.js';
import { expandBfclAnswer } from './expand-bfcl-answer.js';
import { fromBfclFunction, fromBfclFunctions } from './from-bfcl-function.js';
import { readBfclFunction } from './read-bfcl-function.js';

/**
 * Rules 6, 7 and 10 of normalizeBfclSchema over the whole BFCL v4 folder: which nested dicts are closed,
 * and which declared defaults are kept or dropped. Every count is asserted exactly.
 */
const corpus = readBfclCorpus(fileURLToPath(new URL('../../../shared/corpus/bfcl/', import.meta.url)));
/** Every definition with what readBfclFunction made of it, read once for all tests. */
const definitions = listBfclDefinitions(corpus).map((found) => ({
  ...found,
  ...readBfclFunction(found.definition, { language: found.language }),
}));
const compiler = createSchemaCompiler();
const INVENTED = 'invented_key';

type Node = Readonly<Record<string, unknown>>;

/** Every node of a BFCL schema with the matching node of its normalized schema, below `path`. */
function* pairs(
  source: unknown,
  out: unknown,
  path: string,
  depth = 0,
): Generator<[Node, Node, string, number]> {
  if (!isPlainObject(out)) return;
  const node = typeof source === 'string' ? { type: source } : source;
  if (!isPlainObject(node)) return;
  yield [node, out, path, depth];
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const outProperties = isPlainObject(out.properties) ? out.properties : {};
  for (const [name, child] of Object.entries(properties))
    yield* pairs(child, outProperties[name], `${path}.properties.${name}`, depth + 1);
  if (isPlainObject(node.items)) yield* pairs(node.items, out.items, `${path}.items`, depth + 1);
  if (Array.isArray(node.items) && Array.isArray(out.items))
    for (const [i, item] of node.items.entries())
      yield* pairs(item, out.items[i], `${path}.items.${i}`, depth + 1);
}

const namesKeys = (node: Node) =>
  isPlainObject(node.properties) &&
  Object.keys(node.properties).length > 0 &&
  ['object', 'any'].includes(String(readTypeName(node.type)));

describe('BFCL v4 corpus: closed objects and defaults', { timeout: 30_000 }, () => {
  it('closes every nested dict that names its keys, and leaves every other nested dict open', () => {
    const counts = { named: 0, free: 0, functions: new Set<string>(), open: [] as string[] };
    for (const { where, definition, inputSchema } of definitions) {
      for (const [source, out, path, depth] of pairs(definition.parameters, inputSchema, 'parameters')) {
        if (depth === 0) {
          expect(out.additionalProperties, `${where} ${path}`).toBe(false);
          continue;
        }
        const named = namesKeys(source);
        if (named) {
          counts.named++;
          counts.functions.add(`${where} ${definition.name}`);
          if (out.additionalProperties !== false) counts.open.push(`${where} ${path}`);
        } else if (readTypeName(source.type) === 'object') {
          counts.free++;
          expect(out.additionalProperties, `${where} ${path}`).toBeUndefined();
        }
      }
    }
    expect(counts.open).toEqual([]);
    expect({ named: counts.named, functions: counts.functions.size, free: counts.free }).toEqual({
      named: 50,
      functions: 47,
      free: 37,
    });
    // The one nested `properties: {}`: "optional query parameters ... as key-value pairs", a free dict.
    const requests = definitions.find(({ where }) => where === 'live_simple_132-85-0')?.definition;
    const tool = fromBfclFunction(requests, { execute: () => 'ok' });
    expect(tool.validateInput({ url: 'https://example.com', params: { page: 2 } })).toMatchObject({
      ok: true,
    });
  });

  it('refuses a key the model invents in a nested dict of a valid ground-truth call, naming it', () => {
    const withClosedNestedDict = new Set(
      definitions
        .filter(({ definition, inputSchema }) => {
          const nodes = [...pairs(definition.parameters, inputSchema, 'parameters')];
          return nodes.some(([source, , , depth]) => depth > 0 && namesKeys(source));
        })
        .map(({ where }) => where),
    );
    const toolsByEntry = new Map<string, ImportedTools>();
    const refused: string[] = [];
    const accepted: string[] = [];
    for (const { category, id, index, name, acceptable, entry } of listExpectedCalls(corpus)) {
      if (Object.hasOwn(EXPECTED_FAILURES, `${id}#${index}`) || !withClosedNestedDict.has(id)) continue;
      let imported = toolsByEntry.get(id);
      if (imported === undefined) {
        const language = languageOfFile(category);
        imported = fromBfclFunctions(entry.function ?? [], { handler: () => 'ok', language });
        toolsByEntry.set(id, imported);
      }
      const { tools, nameMap } = imported;
      const tool = tools.find((t) => t.name === nameMap.toProvider(name));
      const valid = expandBfclAnswer(acceptable)[0]?.arguments ?? {};
      const properties = (tool?.inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>;
      for (const [argument, value] of Object.entries(valid)) {
        const invented = withInventedKey(properties[argument], value);
        if (invented === undefined) continue;
        const outcome = tool?.validateInput({ ...valid, [argument]: invented.value }) as
          | ValidationOutcome<unknown>
          | undefined;
        const path = `/${argument}${invented.suffix}/${INVENTED}`;
        const named = !outcome?.ok && outcome?.issues.some((issue) => issue.path === path);
        (named ? refused : accepted).push(`${id}#${index} ${path}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(refused).toHaveLength(33);
    expect(refused).toContain('simple_javascript_12#0 /requestConfig/invented_key');
    expect(refused).toContain('simple_python_94#0 /update_info/invented_key');
    expect(refused).toContain('simple_python_96#0 /conditions/0/invented_key');
  });

  it('keeps every default its own parameter accepts, accepts null, and drops the rest with a note', () => {
    const seen = new Set<string>();
    const counts = {
      declared: 0,
      null: 0,
      kept: 0,
      droppedType: 0,
      droppedEnum: 0,
      functionsDropping: new Set<string>(),
      distinctDropping: new Set<string>(),
    };
    const refusedOwn: string[] = [];
    const accepts = new Map<string, boolean>();
    for (const { where, definition, inputSchema, notes } of definitions) {
      const text = JSON.stringify(definition);
      const first = !seen.has(text);
      seen.add(text);
      for (const [source, out, path] of pairs(definition.parameters, inputSchema, 'parameters')) {
        if ('default' in source) counts.declared++;
        if (source.default === null) counts.null++;
        if (!('default' in out)) continue;
        counts.kept++;
        const key = JSON.stringify(out, withoutText);
        const ok = accepts.get(key) ?? compiler.compile(JSON.parse(key))(out.default).ok;
        accepts.set(key, ok);
        if (!ok) refusedOwn.push(`${where} ${path}`);
      }
      for (const note of notes) {
        if (note.rule !== 'dropped-default' || !note.path.startsWith('parameters')) continue;
        if (note.detail.includes('enum')) counts.droppedEnum++;
        else counts.droppedType++;
        counts.functionsDropping.add(`${where} ${definition.name}`);
        if (first) counts.distinctDropping.add(text);
      }
    }
    expect(refusedOwn).toEqual([]);
    const { functionsDropping, distinctDropping, ...declared } = counts;
    expect(declared.declared).toBe(declared.kept + declared.droppedType + declared.droppedEnum);
    expect({
      ...declared,
      definitions: definitions.length,
      distinct: seen.size,
      functionsDropping: functionsDropping.size,
      distinctDropping: distinctDropping.size,
    }).toEqual({
      definitions: 2487,
      distinct: 1828,
      declared: 816,
      null: 76,
      kept: 754,
      droppedType: 42,
      droppedEnum: 20,
      functionsDropping: 61,
      distinctDropping: 36,
    });
  });

  it('keeps a real function usable whose default lies outside its enum (live_simple_141-94-0)', () => {
    const entry = corpus.dataFiles
      .get('BFCL_v4_live_simple.json')
      ?.find((candidate) => candidate.id === 'live_simple_141-94-0');
    const definition = entry?.function?.[0];
    expect(definition?.parameters?.properties).toMatchObject({
      unit: { enum: ['seconds', 'milliseconds'], default: 'N/A' },
    });
    const { notes } = readBfclFunction(definition);
    expect(notes).toEqual([
      {
        path: 'parameters.properties.unit',
        rule: 'dropped-default',
        detail: 'default "N/A" is not one of the enum values: dropped',
      },
    ]);
    const tool = fromBfclFunction(definition, { execute: () => 'ok' });
    expect(tool.inputJsonSchema.properties).toMatchObject({ unit: { enum: ['seconds', 'milliseconds'] } });
    expect(JSON.stringify(tool.inputJsonSchema)).not.toContain('N/A');
    expect(tool.validateInput({ command: 'dir', unit: 'seconds' })).toMatchObject({ ok: true });
    expect(tool.validateInput({ command: 'dir', unit: 'N/A' })).toMatchObject({
      ok: false,
      issues: [{ path: '/unit' }],
    });
  });
});

/** A JSON replacer that leaves out descriptions and titles, which change no validation. */
function withoutText(key: string, value: unknown): unknown {
  return (key === 'description' || key === 'title') && typeof value === 'string' ? undefined : value;
}

/** The value with an invented key in its first closed nested dict, and the pointer suffix to that dict. */
function withInventedKey(
  schema: JsonSchema | undefined,
  value: unknown,
): { value: unknown; suffix: string } | undefined {
  if (schema === undefined) return undefined;
  if (schema.additionalProperties === false && isPlainObject(value) && !Object.hasOwn(value, INVENTED))
    return { value: { ...value, [INVENTED]: 1 }, suffix: '' };
  const items = schema.items as JsonSchema | undefined;
  if (items?.additionalProperties === false && Array.isArray(value) && isPlainObject(value[0]))
    return { value: [{ ...value[0], [INVENTED]: 1 }, ...value.slice(1)], suffix: '/0' };
  return undefined;
}
