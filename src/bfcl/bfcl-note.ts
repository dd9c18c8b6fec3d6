/** The rules of normalizeBfclSchema, by the name its notes carry (see normalize-bfcl-schema.ts). */
export type BfclRule =
  | 'type-name'
  | 'any-type'
  | 'unknown-type'
  | 'tuple'
  | 'enum-on-array'
  | 'enum-type'
  | 'nullable-default'
  | 'dropped-default'
  | 'optional-key'
  | 'required-cleaned'
  | 'misplaced-keyword'
  | 'unknown-keyword'
  | 'source-string'
  | 'not-a-schema'
  | 'top-level';

/** One change the normalization made; `path` is dotted below the schema (`properties.a.items`). */
export interface BfclNote {
  readonly path: string;
  readonly rule: BfclRule;
  readonly detail: string;
}

/** Records a note. */
export type NoteFn = (path: string, rule: BfclRule, detail: string) => void;
