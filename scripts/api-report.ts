// The API report: the exported names and signatures of every entry of package.json's `exports`, written
// to api/<entry>.api.md by API Extractor from the built declarations (run `npm run build` first).
//   npm run api         regenerate the reports (commit them with the change that alters the surface)
//   npm run api:check   fail, with a diff, when the built surface differs from the committed reports
// Both fail when a type used in an exported signature is exported by no entry of the package
// (API Extractor's ae-forgotten-export, read at package level: `toolwarden/testing` may use a type that
// the root entry exports), and when an entry exports a name without a doc comment (members of interfaces
// and classes are not checked), listing those names.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  ExtractorMessageId,
  type IConfigFile,
} from '@microsoft/api-extractor';
import ts from 'typescript';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const check = process.argv.includes('--check');

interface Entry {
  /** The subpath as package.json names it: `.`, `./testing`. */
  readonly subpath: string;
  /** The built declaration file it points at. */
  readonly types: string;
  /** The report's file name without `.api.md`: `toolwarden`, `toolwarden-testing`. */
  readonly report: string;
}

function entriesOf(packageJson: { name: string; exports: Record<string, unknown> }): Entry[] {
  const entries: Entry[] = [];
  for (const [subpath, target] of Object.entries(packageJson.exports)) {
    if (typeof target !== 'object' || target === null || !('types' in target)) continue;
    const types = resolve(root, String(target.types));
    const tail = subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`;
    entries.push({ subpath, types, report: `${packageJson.name}${tail}` });
  }
  return entries;
}

/** The declarations each entry exports, by name, from the same declarations the reports are made of. */
function exportsOf(entries: readonly Entry[]): Map<Entry, Map<string, readonly ts.Declaration[]>> {
  const program = ts.createProgram(
    entries.map((entry) => entry.types),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const byEntry = new Map<Entry, Map<string, readonly ts.Declaration[]>>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry.types);
    const symbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (symbol === undefined) throw new Error(`no declarations at ${entry.types}: run npm run build first`);
    const names = new Map<string, readonly ts.Declaration[]>();
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target =
        (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
      names.set(exported.name, target.declarations ?? []);
    }
    byEntry.set(entry, names);
  }
  return byEntry;
}

/** A declaration with a `/** ... *\/` comment that says something (for a variable, on its statement). */
function isDocumented(declaration: ts.Declaration): boolean {
  // A namespace export (`export * as defaults`) is declared by its module: its opening doc comment says it.
  if (ts.isSourceFile(declaration)) return declaration.text.trimStart().startsWith('/**');
  return ts
    .getJSDocCommentsAndTags(declaration)
    .some((doc) => ts.isJSDoc(doc) && (ts.getTextOfJSDocComment(doc.comment) ?? '').trim() !== '');
}

/** The names of an entry whose declarations (each of them, overloads too) have no doc comment. */
function undocumentedNames(names: ReadonlyMap<string, readonly ts.Declaration[]>): string[] {
  return [...names]
    .filter(([, declarations]) => declarations.some((declaration) => !isDocumented(declaration)))
    .map(([name]) => name)
    .sort();
}

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
const entries = entriesOf(packageJson);
const exportsByEntry = exportsOf(entries);
const exported = new Set([...exportsByEntry.values()].flatMap((names) => [...names.keys()]));
const tempFolder = mkdtempSync(join(tmpdir(), 'toolwarden-api-'));
const problems: string[] = [];
for (const [entry, names] of exportsByEntry) {
  const undocumented = undocumentedNames(names);
  if (undocumented.length > 0) {
    problems.push(
      `${entry.subpath}: ${undocumented.length} export(s) without a doc comment: ${undocumented.join(', ')}`,
    );
  }
}
let changed = 0;
let compilerState: CompilerState | undefined;

try {
  for (const entry of entries) {
    const configObject: IConfigFile = {
      projectFolder: root,
      mainEntryPointFilePath: entry.types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            lib: ['ES2023'],
            types: ['node'],
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: true,
          },
          files: entries.map((each) => each.types),
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: join(root, 'api'),
        reportTempFolder: tempFolder,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
          // Checked above for the entries' exports; the report marks undocumented members (undocumented).
          'ae-undocumented': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          // No release tags (@public, @beta): everything exported is public.
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          // Checked below, at package level.
          'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        },
        // The doc comments are prose for readers, not TSDoc.
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None, addToApiReportFile: false } },
      },
    };
    const config = ExtractorConfig.prepare({
      configObject,
      configObjectFullPath: undefined,
      packageJsonFullPath: join(root, 'package.json'),
    });
    compilerState ??= CompilerState.create(config);
    const result = Extractor.invoke(config, {
      compilerState,
      localBuild: !check,
      printApiReportDiff: check,
      messageCallback: (message: ExtractorMessage) => onMessage(entry, message),
    });
    if (result.apiReportChanged) changed += 1;
    if (!result.succeeded && !result.apiReportChanged)
      problems.push(`${entry.subpath}: API Extractor failed`);
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}

function onMessage(entry: Entry, message: ExtractorMessage): void {
  if (message.messageId === ExtractorMessageId.ForgottenExport) {
    const name = /"([^"]+)"/.exec(message.text)?.[1];
    if (name === undefined || !exported.has(name)) {
      const where = message.sourceFilePath === undefined ? '' : ` (${message.sourceFilePath})`;
      problems.push(
        `${entry.subpath}: ${name ?? message.text} is used in an exported signature but no entry exports it${where}`,
      );
    }
    message.handled = true;
    return;
  }
  // Keep the console quiet on success: the preamble, "writing report", "analysis complete".
  const quiet: readonly ExtractorLogLevel[] = [
    ExtractorLogLevel.Info,
    ExtractorLogLevel.Verbose,
    ExtractorLogLevel.None,
  ];
  if (quiet.includes(message.logLevel)) {
    message.handled = true;
  }
}

if (check && changed > 0) {
  problems.push(
    `${changed} API report(s) differ from the built declarations (the diff is above). If the change is on purpose, run npm run build && npm run api and commit api/.`,
  );
}
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `api: ${problem}`).join('\n')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `api: ${entries.length} entries ${check ? 'match api/' : 'written to api/'} (${entries.map((e) => e.subpath).join(', ')})\n`,
  );
}
