/**
 * The integration suite: test files that start a process, a server, a browser, or talk to Redis or
 * PostgreSQL. `npm test` leaves them out (they took two thirds of its time); `npm run test:integration` runs
 * them alone and `npm run test:all` runs them with the rest, after starting the services they need. The
 * files stay beside their code under their own names; `vitest.integration.test.ts` fails when a test file
 * that starts something is not listed here.
 */
export const INTEGRATION: readonly string[] = [
  // Real MCP servers (npm packages), spawned over stdio (proxy-http: also over Streamable HTTP, and a
  // Streamable HTTP server of the test's own; proxy-client-credentials: servers sent each client's own
  // header, one killed mid-call; proxy-hostile-http: a server of the test's own that answers badly); the
  // postgres ones also need PostgreSQL, proxy-state
  // also Redis, proxy-shared-state two proxy instances on it.
  'src/adapters/mcp/http-session-transport.test.ts',
  'src/adapters/mcp/proxy-client-credentials.test.ts',
  'src/adapters/mcp/proxy-everything.test.ts',
  'src/adapters/mcp/proxy-filesystem.test.ts',
  'src/adapters/mcp/proxy-hostile-http.test.ts',
  'src/adapters/mcp/proxy-http.test.ts',
  'src/adapters/mcp/proxy-memory.test.ts',
  'src/adapters/mcp/proxy-postgres.test.ts',
  'src/adapters/mcp/proxy-security.test.ts',
  'src/adapters/mcp/proxy-sequential-thinking.test.ts',
  'src/adapters/mcp/proxy-shared-state.test.ts',
  'src/adapters/mcp/proxy-stateless-http.test.ts',
  'src/adapters/mcp/proxy-state.test.ts',
  'src/adapters/mcp/proxy-upstream.test.ts',
  'src/adapters/mcp/server-everything.test.ts',
  'src/adapters/mcp/server-filesystem.test.ts',
  'src/adapters/mcp/server-postgres.test.ts',
  'src/adapters/mcp/upstream-http-transport.test.ts',
  // Redis: the shared server at 127.0.0.1:6379 (true-duplicate runs its tests over memory, SQLite and it),
  // or a private redis-server stopped and stalled on purpose.
  'src/adapters/redis/calls-through-an-outage.test.ts',
  'src/adapters/redis/redis-store-outage.test.ts',
  'src/adapters/redis/redis-store-stall.test.ts',
  'src/adapters/redis/redis-store.test.ts',
  'src/chain/idempotency/true-duplicate.test.ts',
  // PostgreSQL: the shared server at 127.0.0.1:5432, each test file under a schema of its own, and a TCP proxy
  // in front of it cut and stalled on purpose.
  'src/adapters/postgres/postgres-store.test.ts',
  // DBOS Transact on the shared PostgreSQL (a database of the test's own), a worker process killed mid-turn.
  'src/adapters/dbos/durable-crash.test.ts',
  'src/adapters/dbos/durable-outage.test.ts',
  'src/adapters/dbos/durable-turns.test.ts',
  // Fake model providers on a local HTTP server (node:http), driven through the real SDKs.
  'examples/openai-sdk.test.ts',
  'src/adapters/ai-sdk/anthropic-stream.test.ts',
  'src/adapters/ai-sdk/anthropic.test.ts',
  'src/adapters/ai-sdk/model-retries-e2e.test.ts',
  'src/adapters/ai-sdk/openai-compatible-stream.test.ts',
  'src/adapters/ai-sdk/openai-compatible.test.ts',
  'test/fake-providers/openai-chat-provider.test.ts',
  'src/adapters/gateway/gateway-ai-sdk.test.ts',
  'src/adapters/gateway/gateway-anthropic.test.ts',
  'src/adapters/gateway/gateway-responses.test.ts',
  'src/adapters/gateway/gateway-openai-sdk.test.ts',
  'src/adapters/gateway/gateway-otel.test.ts',
  'src/adapters/gateway/gateway-redis.test.ts',
  'src/adapters/gateway/gateway-wire.test.ts',
  'src/adapters/gateway/http-io.test.ts',
  // A real Spring AI app (interop/spring-ai/, built by Maven) run as `java -jar` against a fake provider.
  'test/interop/spring-ai-app.test.ts',
  // Child processes: several sharing a store (SQLite file or Redis), one killed mid-call, one resuming a
  // saved run, one exiting with the audit log still buffered.
  'src/adapters/sqlite/sqlite-store.test.ts',
  'src/audit/jsonl-audit-sink.test.ts',
  'src/chain/cross-process-limits.test.ts',
  'src/chain/idempotency/crash.test.ts',
  'src/chain/idempotency/exactly-once.test.ts',
  'src/guard/cross-process-guard.test.ts',
  'src/run/approvals-across-processes.test.ts',
  'src/run/open-run.test.ts',
  // The CLI as a user runs it: `node --import tsx src/cli/main.ts`, or its check runner's child process.
  'src/check/check-command.test.ts',
  'src/check/check-hostile-modules.test.ts',
  'src/cli/demo-command.test.ts',
  'src/cli/gateway-command.test.ts',
  'src/cli/mcp-proxy-command.test.ts',
  'src/cli/run-command-e2e.test.ts',
  // A browser: Debian's Chromium through playwright-core.
  'src/report/report-page-in-browser.test.ts',
];
