import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT, type TypeScriptBlock } from './markdown-blocks.js';

/** The file name a block compiles under: beside its Markdown file, so errors point at it. */
export function blockFileName(block: TypeScriptBlock): string {
  return join(ROOT, `${block.file}.line-${block.line}.ts`);
}

/**
 * `toolwarden` and each `toolwarden/*` entry of package.json's exports, mapped to the source of the entry
 * (`./dist/adapters/mcp/index.d.ts` → `src/adapters/mcp/index.ts`): the docs compile against `src/`, not a
 * build.
 */
export function entryPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [entry, target] of Object.entries(manifest.exports)) {
    const types = typeof target === 'string' ? target : target.types;
    if (types === undefined || !types.endsWith('.d.ts')) continue;
    const source = types.replace(/^\.\/dist\//, './src/').replace(/\.d\.ts$/, '.ts');
    paths[entry === '.' ? 'toolwarden' : `toolwarden/${entry.slice(2)}`] = [source];
  }
  return paths;
}

/** The repository's compiler options (tsconfig.json), with the entries mapped to `src/`. */
function compilerOptions(): ts.CompilerOptions {
  const path = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(path, ts.sys.readFile);
  if (read.error !== undefined)
    throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const { options, errors } = ts.convertCompilerOptionsFromJson(read.config.compilerOptions, ROOT, path);
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0]?.messageText, '\n'));
  return { ...options, noEmit: true, declaration: false, sourceMap: false, paths: entryPaths() };
}

/**
 * Compiles the blocks, each a module of its own, in one program against the package's source, and returns
 * one line per error: `<file>:<line>:<column> TS<code> <message>`, the line and column in the Markdown file.
 */
export function checkBlocks(blocks: readonly TypeScriptBlock[]): string[] {
  const byName = new Map(blocks.map((block) => [blockFileName(block), block]));
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => byName.has(name) || fileExists.call(host, name);
  host.readFile = (name) => byName.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = byName.get(name);
    return block === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, block.code, language, true, ts.ScriptKind.TS);
  };
  const program = ts.createProgram({ rootNames: [...byName.keys()], options, host });
  const problems: string[] = [];
  for (const [name, block] of byName) {
    const source = program.getSourceFile(name);
    if (source === undefined) throw new Error(`${block.file}:${block.line}: the block was not compiled`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const diagnostic of diagnostics) {
      const at = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
      problems.push(
        `${block.file}:${block.line + at.line}:${at.character + 1} TS${diagnostic.code} ${message}`,
      );
    }
  }
  return problems;
}
