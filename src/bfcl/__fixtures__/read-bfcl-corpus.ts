import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { BfclFunction, BfclLanguage } from '../bfcl-function.js';

/** The single-turn categories that have ground truth, with the language of their functions. */
export const SINGLE_TURN_CATEGORIES = {
  simple_python: 'python',
  simple_java: 'java',
  simple_javascript: 'javascript',
  multiple: 'python',
  parallel: 'python',
  parallel_multiple: 'python',
  live_simple: 'python',
} as const satisfies Record<string, BfclLanguage>;

export type SingleTurnCategory = keyof typeof SINGLE_TURN_CATEGORIES;

export interface BfclEntry {
  readonly id: string;
  readonly function?: readonly BfclFunction[];
}

/** `{ function name: { argument: [acceptable values] } }`, one per expected call. */
export type BfclExpectedCall = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface BfclCorpus {
  readonly directory: string;
  /** Every `BFCL_v4_*.json` data file by name, with its entries. */
  readonly dataFiles: ReadonlyMap<string, readonly BfclEntry[]>;
  /** Every `multi_turn_func_doc/*.json` file by name, with its functions. */
  readonly funcDocs: ReadonlyMap<string, readonly BfclFunction[]>;
  /** Possible answers of the single-turn categories, by category and id. */
  readonly answers: ReadonlyMap<SingleTurnCategory, ReadonlyMap<string, readonly BfclExpectedCall[]>>;
}

/** The language of a data file's functions: simple_java and simple_javascript pass source text. */
export function languageOfFile(file: string): BfclLanguage {
  return file.includes('simple_javascript') ? 'javascript' : file.includes('simple_java') ? 'java' : 'python';
}

/** One function definition where the corpus offers it: an entry of a data file, or a func-doc file. */
export interface BfclDefinition {
  /** The entry id, or `multi_turn_func_doc/<file>`. */
  readonly where: string;
  readonly language: BfclLanguage;
  readonly definition: BfclFunction;
}

/** Every function definition of every data file and func doc, in file order, repeats included. */
export function listBfclDefinitions(corpus: BfclCorpus): BfclDefinition[] {
  const definitions: BfclDefinition[] = [];
  for (const [file, entries] of corpus.dataFiles) {
    for (const entry of entries) {
      for (const definition of entry.function ?? [])
        definitions.push({ where: entry.id, language: languageOfFile(file), definition });
    }
  }
  for (const [file, functions] of corpus.funcDocs) {
    for (const definition of functions)
      definitions.push({ where: `multi_turn_func_doc/${file}`, language: 'python', definition });
  }
  return definitions;
}

/** One single-turn expected call: its entry, its position, the function and its acceptable arguments. */
export interface BfclExpectedCallOf {
  readonly category: SingleTurnCategory;
  readonly id: string;
  readonly index: number;
  readonly name: string;
  readonly acceptable: Readonly<Record<string, unknown>>;
  readonly entry: BfclEntry;
}

/** Every single-turn expected call with its entry, in category order. */
export function listExpectedCalls(corpus: BfclCorpus): BfclExpectedCallOf[] {
  return (Object.keys(SINGLE_TURN_CATEGORIES) as SingleTurnCategory[]).flatMap((category) => {
    const entries = new Map(
      (corpus.dataFiles.get(`BFCL_v4_${category}.json`) ?? []).map((entry) => [entry.id, entry]),
    );
    return [...(corpus.answers.get(category) ?? [])].flatMap(([id, calls]) => {
      const entry = entries.get(id);
      if (entry === undefined) throw new Error(`no entry ${id}`);
      return calls.map((call, index) => {
        const [name, acceptable] = Object.entries(call)[0] ?? ['', {}];
        return { category, id, index, name, acceptable, entry };
      });
    });
  });
}

/** Reads the corpus, or throws an error that says where it was looked for and what it should hold. */
export function readBfclCorpus(directory: string): BfclCorpus {
  if (!existsSync(directory) || !existsSync(`${directory}possible_answer`)) {
    throw new Error(
      `The BFCL corpus is missing: expected ${directory} with BFCL_v4_*.json, possible_answer/ and multi_turn_func_doc/ (../shared/corpus/bfcl next to the repository; see its README.md).`,
    );
  }
  const dataFiles = new Map<string, BfclEntry[]>();
  for (const file of readdirSync(directory)
    .filter((name) => /^BFCL_v4_.*\.json$/.test(name))
    .sort()) {
    dataFiles.set(file, readJsonLines<BfclEntry>(`${directory}${file}`));
  }
  const funcDocs = new Map<string, BfclFunction[]>();
  for (const file of readdirSync(`${directory}multi_turn_func_doc`).sort()) {
    funcDocs.set(file, readJsonLines<BfclFunction>(`${directory}multi_turn_func_doc/${file}`));
  }
  const answers = new Map<SingleTurnCategory, Map<string, readonly BfclExpectedCall[]>>();
  for (const category of Object.keys(SINGLE_TURN_CATEGORIES) as SingleTurnCategory[]) {
    const rows = readJsonLines<{ id: string; ground_truth: BfclExpectedCall[] }>(
      `${directory}possible_answer/BFCL_v4_${category}.json`,
    );
    answers.set(category, new Map(rows.map((row) => [row.id, row.ground_truth])));
  }
  return { directory, dataFiles, funcDocs, answers };
}

/** JSON Lines (most files have no trailing newline); an unparsable line is named by file and number. */
function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, index) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as T];
      } catch (error) {
        throw new Error(`${path}:${index + 1} is not JSON: ${String(error)}`);
      }
    });
}
