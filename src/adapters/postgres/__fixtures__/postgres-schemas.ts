import { connectSharedPostgres, dropSchema, testSchema } from './shared-postgres.js';

/** Schemas of a test file's own on the shared PostgreSQL, and the cleanup that drops every one of them. */
export function postgresSchemas(): { next(): string; cleanup(): Promise<void> } {
  const given: string[] = [];
  return {
    next: () => {
      const schema = testSchema();
      given.push(schema);
      return schema;
    },
    cleanup: async () => {
      if (given.length === 0) return;
      const admin = await connectSharedPostgres();
      try {
        for (const schema of given) await dropSchema(admin, schema);
      } finally {
        await admin.end();
      }
    },
  };
}
