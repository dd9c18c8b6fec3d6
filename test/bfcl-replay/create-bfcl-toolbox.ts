import { fromBfclFunctions } from '../../src/bfcl/from-bfcl-function.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import type { Args } from './__fixtures__/bfcl-api.js';
import { BFCL_CLASSES } from './__fixtures__/bfcl-classes.js';
import type { MultiTurnCorpus } from './read-multi-turn-tasks.js';

/**
 * What the tools declare. `declared`: the methods that only read are `effect: 'read'`, the rest left to
 * the import's default (`unknown`). `undeclared`: every tool left at the default, the cautious reading.
 */
export type Effects = 'declared' | 'undeclared';

/** Runs one call of the current task: the run passes it to the tools as `data`. */
export type CallExecutor = (name: string, args: Args, callId: string) => unknown;

/** The tools of BFCL classes, imported once per class and effects, for every task to share. */
export interface BfclToolbox {
  /** The tools of these classes; each calls the `CallExecutor` its run gives as `data`. */
  toolsFor(classes: readonly string[], effects: Effects): AnyTool[];
  /** Each function's parameter names, in the doc's order (how a positional argument is named). */
  parameterNames(name: string): readonly string[] | undefined;
}

/**
 * Imports the func docs of the implemented classes with `fromBfclFunctions` (through `defineTool`), on
 * first use. Importing compiles every schema, which costs more than a whole task's replay, so the tools are
 * made once and a run's `data` says which task's classes they act on.
 */
export function createBfclToolbox(corpus: MultiTurnCorpus): BfclToolbox {
  const made = new Map<string, readonly AnyTool[]>();
  const parameters = new Map<string, readonly string[]>();
  const docsOf = (className: string) => {
    const known = BFCL_CLASSES[className];
    if (known === undefined) throw new Error(`${className} is not implemented`);
    // The declared `response` is left out: BFCL never checks it, and the classes answer outside it (`None`
    // for mkdir, a list for get_user_tweets, `{"error": ...}`), which an output contract would turn into
    // CONTRACT_VIOLATION instead of the result the model reads in BFCL.
    const docs = corpus.funcDocs(known.docFile).map(({ response: _response, ...doc }) => doc);
    for (const doc of docs) {
      const properties = (doc.parameters as { properties?: Record<string, unknown> } | undefined)?.properties;
      parameters.set(String(doc.name), Object.keys(properties ?? {}));
    }
    return { known, docs };
  };
  for (const className of Object.keys(BFCL_CLASSES)) docsOf(className);
  return {
    toolsFor(classes, effects) {
      return classes.flatMap((className) => {
        const key = `${className}|${effects}`;
        let tools = made.get(key);
        if (tools === undefined) {
          const { known, docs } = docsOf(className);
          tools = fromBfclFunctions(docs, {
            handler: (name, args, context) =>
              (context.data as CallExecutor)(name, args as Args, context.toolCallId),
            ...(effects === 'declared'
              ? { effect: (name: string) => (known.reads.has(name) ? 'read' : undefined) }
              : {}),
          }).tools;
          made.set(key, tools);
        }
        return tools;
      });
    },
    parameterNames: (name) => parameters.get(name),
  };
}
