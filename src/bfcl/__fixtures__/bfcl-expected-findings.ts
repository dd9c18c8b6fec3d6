/**
 * What bfcl-corpus.test.ts expects of ../shared/corpus/bfcl, computed once and checked by hand: a change
 * to the normalization, the expansion of answers, or the corpus shows up as a difference here.
 */

/** How often each normalization rule (see normalize-bfcl-schema.ts) fired over all 2,487 functions. */
export const EXPECTED_RULE_COUNTS = {
  'type-name': 1229,
  'optional-key': 54,
  'dropped-default': 62,
  'misplaced-keyword': 4,
  'nullable-default': 76,
  'enum-on-array': 1,
  'any-type': 177,
  tuple: 10,
  'required-cleaned': 3,
  'source-string': 158,
};

/** Single-turn expected calls, the argument objects they expand to, and how many pass. */
export const EXPECTED_VALIDATION_COUNTS = {
  calls: 2155,
  variants: 4373,
  passed: 2111,
  failed: 44,
};

/** Valid calls run through the chain, and the broken variants of them it rejected, by kind. */
export const EXPECTED_BROKEN_COUNTS = {
  calls: 2111,
  checked: 4481,
  'missing-required': 2088,
  'wrong-type': 2075,
  'enum-outside': 317,
  'unexpected-argument': 1,
};

/**
 * The expected calls (`id#position`) that break their own function's schema, with every expanded
 * variant that fails and why. The README names only some of them; the others are listed by what is wrong.
 */
export const EXPECTED_FAILURES: Readonly<Record<string, readonly string[]>> = {
  // Named in the corpus README ("Answer args not in the schema"): an argument the function does not have.
  'parallel_multiple_12#1': ['/permeability = 0.1 → /permeability: is not an allowed property'],
  'parallel_multiple_26#1': [
    'preferred values → /type: is not an allowed property',
    '/transactions omitted → /type: is not an allowed property',
    '/starting_balance = 0 → /type: is not an allowed property',
  ],
  // README category "Required params whose acceptable values include \"\"": omission is listed for a required argument.
  'simple_python_17#0': ['/formatted omitted → /formatted: is required'],
  'simple_python_200#0': [
    'preferred values → /fuel_efficiency: is required',
    '/efficiency_reduction omitted → /fuel_efficiency: is required',
  ],
  'parallel_88#0': ['/initial_velocity omitted → /initial_velocity: is required'],
  'parallel_multiple_87#2': ['/initial_velocity omitted → /initial_velocity: is required'],
  'parallel_multiple_119#2': ['/league_name omitted → /league_name: is required'],
  // README category "Answer value types that disagree with the declared type": a boolean for a string, null for a float
  // whose default is not null (rule 6 accepts null only where the default is null).
  'simple_python_307#0': ['/venue = true → /venue: must be string'],
  'parallel_152#0': ['/mod = null → /mod: must be number'],
  'parallel_152#1': ['/mod = null → /mod: must be number'],
  // Not in the README: "N/A" for a unit whose enum is ["seconds", "milliseconds"]. The function's own default is
  // "N/A" (rule 7 drops it); BFCL's checker compares answers, not enums.
  'live_simple_141-94-0#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_142-94-1#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_143-95-0#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_144-95-1#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_145-95-2#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_146-95-3#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_147-95-4#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_148-95-5#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_149-95-6#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_150-95-7#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_151-95-8#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_152-95-9#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_153-95-10#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_154-95-11#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_155-95-12#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_156-95-13#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_157-95-14#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_158-95-15#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_159-95-16#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  'live_simple_160-95-17#0': ['/unit = "N/A" → /unit: must be one of: "seconds", "milliseconds"'],
  // Not in the README: other values outside their enum.
  'simple_python_358#0': [
    '/diet = ["GF"] → /diet/0: must be one of: "Gluten Free", "Dairy Free", "Vegan", "Vegetarian"',
    '/diet = ["gluten free"] → /diet/0: must be one of: "Gluten Free", "Dairy Free", "Vegan", "Vegetarian"',
  ],
  'multiple_76#0': [
    '/material = "bronze" → /material: must be one of: "Bronze", "Marble", "Terracotta", "Wood", "Stone"',
  ],
  'parallel_multiple_143#1': [
    '/specs = ["open-hole","silver-headjoint"] → /specs/0: must be one of: "open hole", "C foot", "silver headjoint"; /specs/1: must be one of: "open hole", "C foot", "silver headjoint"',
  ],
  'parallel_multiple_173#2': [
    '/time_frame = "1 year" → /time_frame: must be one of: "six_months", "year", "five_years"',
    '/time_frame = "12 months" → /time_frame: must be one of: "six_months", "year", "five_years"',
  ],
  'parallel_multiple_173#3': [
    '/time_frame = "5 years" → /time_frame: must be one of: "six_months", "year", "five_years"',
  ],
  'parallel_multiple_194#3': ['/unit = "ft" → /unit: must be one of: "meter", "feet"'],
  // Not in the README: values of the wrong type (a list of lists for a list of strings, Python expressions for
  // arrays, words for a list of integers).
  'simple_python_149#0': [
    '/company_names = [["Apple"],["Microsoft"]] → /company_names/0: must be string; /company_names/1: must be string',
  ],
  'parallel_multiple_21#1': ['preferred values → /x: must be array; /y: must be array'],
  'parallel_multiple_94#0': [
    'preferred values → /elements/0: must be integer; /elements/1: must be integer; /elements/2: must be integer; /elements/3: must be integer; /elements/4: must be integer',
    '/elements = ["elderberry","cherry","banana","apple","date"] → /elements/0: must be integer; /elements/1: must be integer; /elements/2: must be integer; /elements/3: must be integer; /elements/4: must be integer',
    '/order = "descending" → /elements/0: must be integer; /elements/1: must be integer; /elements/2: must be integer; /elements/3: must be integer; /elements/4: must be integer',
  ],
  // Not in the README: dates the function's own `format: "date"` refuses.
  'parallel_multiple_63#0': [
    '/date = "01/15/2021" → /date: must match format "date"',
    '/date = "Jan 15, 2021" → /date: must match format "date"',
  ],
  'parallel_multiple_63#1': [
    '/date = "12/25/2020" → /date: must match format "date"',
    '/date = "Dec 25, 2020" → /date: must match format "date"',
  ],
  'parallel_multiple_63#2': [
    '/date = "01/01/2021" → /date: must match format "date"',
    '/date = "Jan 1, 2021" → /date: must match format "date"',
  ],
  // Not in the README: required arguments whose list of acceptable values is empty.
  'live_simple_106-63-0#0': [
    '/auto_loan_payment_start lists no acceptable value',
    '/bank_hours_start lists no acceptable value',
    'preferred values → /auto_loan_payment_start: is required; /bank_hours_start: is required',
  ],
  'live_simple_112-68-0#0': [
    '/acc_routing_start lists no acceptable value',
    '/atm_finder_start lists no acceptable value',
    '/faq_link_accounts_start lists no acceptable value',
    '/get_balance_start lists no acceptable value',
    '/get_transactions_start lists no acceptable value',
    'preferred values → /acc_routing_start: is required; /atm_finder_start: is required; /faq_link_accounts_start: is required; /get_balance_start: is required; /get_transactions_start: is required',
  ],
};
