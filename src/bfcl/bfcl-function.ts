/**
 * A function definition as the Berkeley Function Calling Leaderboard (BFCL v4) writes it: JSON Schema-like
 * `parameters` with BFCL's own type names (`dict`, `float`, `tuple`, `any`, Java and JavaScript names).
 * Multi-turn function docs add a `response` schema (what the function returns).
 */
export interface BfclFunction {
  /** The function's name (dots allowed: `math.factorial`). */
  readonly name: string;
  /** What the function does, for the model. */
  readonly description?: string;
  /** Its parameters, in BFCL's schema dialect. */
  readonly parameters?: BfclSchema;
  /** Its result, in BFCL's schema dialect. */
  readonly response?: BfclSchema;
}

/** A BFCL schema node: kept loose on purpose, since the data is (see normalizeBfclSchema). */
export type BfclSchema = { readonly [keyword: string]: unknown };

/**
 * The language of a BFCL category: `java` (simple_java) and `javascript` (simple_javascript) pass
 * arguments as source text; every other category is `python`.
 */
export type BfclLanguage = 'python' | 'java' | 'javascript';
