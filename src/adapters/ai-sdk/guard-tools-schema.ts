import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { FlexibleSchema, Schema } from 'ai';

/** `asSchema` from `ai`, loaded on first use: `toolwarden/ai-sdk` imports without the optional peer. */
type AsSchema = (schema: FlexibleSchema<unknown> | undefined) => Schema<unknown>;

let loading: Promise<AsSchema> | undefined;

/**
 * `ai`'s `asSchema`, imported once. Without the package the promise rejects with an error that names it and
 * says how to install it (the AI SDK is an optional peer of toolwarden).
 */
export function loadAsSchema(): Promise<AsSchema> {
  loading ??= import('ai').then(
    (ai) => ai.asSchema as AsSchema,
    (cause: unknown) => {
      loading = undefined;
      throw new Error(
        "guardTools needs the package 'ai' (the Vercel AI SDK, an optional peer of toolwarden): npm install ai@6",
        { cause },
      );
    },
  );
  return loading;
}

/** Placeholder for toolwarden's copy of the schema: the AI SDK shows the model the tool's own. */
const ANY_OBJECT = Object.freeze({ type: 'object' });

/**
 * An AI SDK schema (zod, `jsonSchema(...)`, a Standard Schema, a lazy schema) as the Standard Schema the
 * chain validates with: `asSchema(schema).validate`, the AI SDK's own check, so the call is held to exactly
 * the rules the tool declared (refinements included, which a JSON Schema copy would lose). A schema without
 * `validate` (`jsonSchema(...)` alone), or none, accepts what the AI SDK accepted: it only parsed the JSON.
 */
export function toStandardSchema(
  schema: FlexibleSchema<unknown> | undefined,
  side: 'input' | 'output',
): StandardSchemaV1 {
  const converter = () => ANY_OBJECT;
  // `asSchema(schema)` once, on the first call (a zod schema gets a new wrapper from every asSchema).
  let resolved: Schema<unknown> | undefined;
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      validate: async (value: unknown) => {
        if (schema === undefined) return { value };
        resolved ??= (await loadAsSchema())(schema);
        const { validate } = resolved;
        if (validate === undefined) return { value };
        const result = await validate(value);
        if (result.success) return { value: result.value };
        return { issues: [{ message: messageOf(result.error) }] };
      },
      // Read by the chain's `convertStandardSchema`; the chain's copy is never shown to a model.
      jsonSchema: side === 'input' ? { input: converter } : { input: converter, output: converter },
    } as StandardSchemaV1.Props,
  };
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error && typeof error.message === 'string' && error.message !== ''
      ? error.message
      : 'does not match the schema';
  } catch {
    return 'does not match the schema';
  }
}
