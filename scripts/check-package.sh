#!/usr/bin/env bash
# The package as a user gets it: packs the built dist/ (run `npm run build` first), installs the tarball in
# a fresh consumer folder from the npm cache only (no network), and checks that
#   - the tarball holds LICENSE, README.md, package.json and dist/, and no tests, no src/, no source maps, no
#     loop scenarios (test/scenarios/);
#   - every file package.json's exports and bin name is in it;
#   - the install prints no warning about toolwarden itself (its own lifecycle scripts);
#   - each entry loads with `import` and with `require()` (Node >= 20.19 loads ESM from require),
#     and its types resolve for a TypeScript consumer (moduleResolution nodenext);
#   - `toolwarden/sqlite`, `toolwarden/redis` and `toolwarden/postgres` load without their optional peers
#     better-sqlite3, redis and pg (not installed here), and opening a store says how to install them;
#   - `toolwarden/ai-sdk` loads and type-checks without its optional peers ai and @ai-sdk/provider (not
#     installed here): it only uses their types;
#   - `toolwarden/otel` without its optional peer @opentelemetry/api fails to import naming that package
#     (the entry exists only to talk to it), and with it imports, requires and type-checks;
#   - `toolwarden/ai-sdk` loads without its optional peer ai (imported on a guarded tool's first call, which
#     then fails naming the package), and with it runs a guarded call;
#   - `toolwarden/mcp` loads, type-checks and guards a call without its optional peer
#     @modelcontextprotocol/sdk (not installed here): it never imports the SDK (a port of one's own here);
#   - `toolwarden/dbos` loads and type-checks without its optional peer @dbos-inc/dbos-sdk: it never imports it
#     (the application passes its DBOS class);
#   - `npx toolwarden --version` prints the version.
# If the cache lacks a dependency (a machine where `npm ci` never ran), the install step says so and the
# checks run against the unpacked tarball with the repository's dependencies instead.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

fail() {
  echo "check-package: $*" >&2
  exit 1
}

[ -f dist/index.js ] || fail "dist/ is missing: run npm run build first"
version="$(node -p "require('./package.json').version")"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolwarden-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# 1. The tarball. --ignore-scripts: dist/ is built already (prepack would build it again).
npm pack --ignore-scripts --silent --json --pack-destination "$work" >"$work/pack.json"
node - "$work/pack.json" <<'EOF'
const { readFileSync } = require('node:fs');
const [pack] = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const files = new Set(pack.files.map((file) => file.path));
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];
for (const required of ['LICENSE', 'README.md', 'package.json']) {
  if (!files.has(required)) problems.push(`${required} is not in the package`);
}
for (const file of files) {
  if (file.endsWith('.map')) problems.push(`${file}: a source map (it would point at src/, which is not shipped)`);
  if (/\.test\.|__fixtures__/.test(file)) problems.push(`${file}: a test file`);
  // The loop scenarios (test/scenarios/, `npm run scenarios`) are a developer suite, not part of the package.
  if (/scenario/i.test(file)) problems.push(`${file}: a loop scenario (a test fixture)`);
  // The README links docs/, api/ and examples/ (relative links that must work on the package's page too).
  if (!/^(dist\/|docs\/|api\/|examples\/|LICENSE$|README\.md$|package\.json$)/.test(file))
    problems.push(`${file}: outside what the package ships`);
}
// Every relative link of the shipped Markdown reaches a file in the package (the npm page shows README.md).
const { posix } = require('node:path');
for (const doc of [...files].filter((file) => file.endsWith('.md') && !file.startsWith('api/'))) {
  const text = readFileSync(doc, 'utf8');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:|^#/.test(target)) continue;
    const path = posix.normalize(posix.join(posix.dirname(doc), target.split('#')[0]));
    const found = files.has(path) || [...files].some((file) => file.startsWith(path.endsWith('/') ? path : `${path}/`));
    if (!found) problems.push(`${doc} links ${target}, which is not in the package`);
  }
}
const targets = [];
const walk = (value) => {
  if (typeof value === 'string') targets.push(value);
  else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
};
walk(manifest.exports);
walk(manifest.bin);
for (const target of targets) {
  const path = target.replace(/^\.\//, '');
  if (!files.has(path)) problems.push(`${target} (named in package.json) is not in the package`);
}
if (problems.length > 0) {
  console.error(`check-package: the tarball is wrong:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-package: ${pack.filename}: ${files.size} files, ${Math.round(pack.size / 1024)} KiB`);
EOF
tarball="$work/$(node -p "JSON.parse(require('fs').readFileSync('$work/pack.json', 'utf8'))[0].filename")"

# 2. A fresh consumer.
consumer="$work/consumer"
mkdir -p "$consumer"
printf '{ "name": "consumer", "version": "1.0.0", "private": true }\n' >"$consumer/package.json"
if (cd "$consumer" && npm install --offline --no-audit --no-fund "$tarball") >"$work/install.log" 2>&1; then
  if grep -i 'warn' "$work/install.log" | grep -i 'toolwarden' >&2; then
    fail "installing the package warns about toolwarden itself (above)"
  fi
  echo "check-package: installed from the npm cache, no warning about toolwarden"
elif grep -q 'ENOTCACHED' "$work/install.log"; then
  echo "check-package: a dependency is not in the npm cache (run npm ci once): the install warning is not checked;"
  echo "check-package: checking the unpacked tarball with the repository's dependencies instead"
  mkdir -p "$consumer/node_modules/toolwarden" "$consumer/node_modules/.bin"
  tar -xzf "$tarball" -C "$consumer/node_modules/toolwarden" --strip-components=1
  node -e "for (const d of Object.keys(require('./package.json').dependencies ?? {})) console.log(d)" |
    while read -r dependency; do
      mkdir -p "$consumer/node_modules/$(dirname "$dependency")"
      ln -s "$repo/node_modules/$dependency" "$consumer/node_modules/$dependency"
    done
  chmod +x "$consumer/node_modules/toolwarden/dist/cli/main.js"
  ln -s ../toolwarden/dist/cli/main.js "$consumer/node_modules/.bin/toolwarden"
else
  cat "$work/install.log" >&2
  fail "npm install of the tarball failed (above)"
fi

# 3. Every entry, from ESM, from CommonJS, and its types.
cd "$consumer"
cat >esm.mjs <<'EOF'
import { defineTool, runToolLoop } from 'toolwarden';
import { auditListener, createJsonlAuditSink } from 'toolwarden/audit';
import { reportAuditLog } from 'toolwarden/report';
import { fromBfclFunctions } from 'toolwarden/bfcl';
import { checkTools } from 'toolwarden/check';
import { fromOpenAiTools } from 'toolwarden/formats';
import { createPostgresStore } from 'toolwarden/postgres';
import { durableTurns } from 'toolwarden/dbos';
import { createRedisStore } from 'toolwarden/redis';
import { createSqliteAuditSink, createSqliteStore } from 'toolwarden/sqlite';
import { ScriptedModel } from 'toolwarden/testing';
import { fromAiSdkModel } from 'toolwarden/ai-sdk';
import * as ports from 'toolwarden/ports';
if (Object.keys(ports).length !== 0) throw new Error('toolwarden/ports holds types only');
for (const value of [fromAiSdkModel, defineTool, runToolLoop, auditListener, createJsonlAuditSink, reportAuditLog, createSqliteAuditSink, fromBfclFunctions, checkTools, fromOpenAiTools, ScriptedModel, createSqliteStore, createRedisStore, createPostgresStore, durableTurns]) {
  if (typeof value !== 'function') throw new Error('an entry lacks an export');
}
const opened = await createSqliteStore({ path: 'store.db' }).then(() => 'it opened', (error) => error.message);
if (!opened.includes('npm install better-sqlite3@12')) {
  throw new Error(`toolwarden/sqlite without better-sqlite3 does not say how to install it: ${opened}`);
}
const connected = await createRedisStore({ url: 'redis://127.0.0.1:6379' }).then(() => 'it connected', (error) => error.message);
if (!connected.includes('npm install redis@5')) {
  throw new Error(`toolwarden/redis without redis does not say how to install it: ${connected}`);
}
const reached = await createPostgresStore({ url: 'postgres://postgres@127.0.0.1:5432/postgres' }).then(() => 'it connected', (error) => error.message);
if (!reached.includes('npm install pg@8')) {
  throw new Error(`toolwarden/postgres without pg does not say how to install it: ${reached}`);
}
EOF
node esm.mjs || fail "import of an entry failed"
# toolwarden/otel imports @opentelemetry/api statically: without the peer, the import names it.
missing="$(node --input-type=module -e "import('toolwarden/otel').then(() => console.log('it loaded'), (error) => console.log(error.message))")"
case "$missing" in
  *"'@opentelemetry/api'"*) ;;
  *) fail "toolwarden/otel without @opentelemetry/api does not name the missing package: $missing" ;;
esac
# Then the peer, as a user installs it beside toolwarden (the repository's copy).
mkdir -p node_modules/@opentelemetry
ln -s "$repo/node_modules/@opentelemetry/api" node_modules/@opentelemetry/api
node --input-type=module -e "
const otel = await import('toolwarden/otel');
if (typeof otel.otelInstrumentation !== 'function') throw new Error('toolwarden/otel lacks otelInstrumentation');
const { wrapToolExecution, wrapRun } = otel.otelInstrumentation();
if (typeof wrapToolExecution !== 'function' || typeof wrapRun !== 'function') throw new Error('no wrappers');
" || fail "import of toolwarden/otel with @opentelemetry/api failed"
# toolwarden/ai-sdk loads without its optional peer ai (guardTools imports it on a tool's first call):
# the guard builds, and its call fails naming the package. Then, with ai beside toolwarden, the call runs.
cat >ai-sdk.mjs <<'EOF'
const { guardTools } = await import('toolwarden/ai-sdk');
if (typeof guardTools !== 'function') throw new Error('toolwarden/ai-sdk lacks guardTools');
const peer = await import('ai').then((ai) => ai, () => undefined);
const inputSchema = peer?.jsonSchema({ type: 'object', properties: { text: { type: 'string' } } });
const guarded = guardTools({ echo: { description: 'Echo.', inputSchema, execute: async ({ text }) => ({ text }) } });
const output = await guarded.tools.echo
  .execute({ text: 'hi' }, { toolCallId: 'c1', messages: [] })
  .then((value) => JSON.stringify(value), (error) => error.message);
const expected = peer === undefined ? "'ai'" : '{"text":"hi"}';
if (!output.includes(expected)) throw new Error(`a guarded call ${peer ? 'with' : 'without'} ai gave ${output}`);
EOF
node ai-sdk.mjs || fail "toolwarden/ai-sdk without ai does not load, or its call does not name the missing package"
ln -s "$repo/node_modules/ai" node_modules/ai
node ai-sdk.mjs || fail "a guarded call of toolwarden/ai-sdk with ai failed"
# toolwarden/mcp never imports the MCP SDK: without it, a port of one's own is guarded end to end.
cat >mcp.mjs <<'EOF'
const { fromMcpClient, createMcpProxy, parseProxyConfig } = await import('toolwarden/mcp');
if (typeof createMcpProxy !== 'function') throw new Error('toolwarden/mcp has no createMcpProxy');
if (parseProxyConfig({}, 'check').limits.perTool !== 200) throw new Error('toolwarden/mcp parseProxyConfig gave other defaults');
const { createToolRuntime } = await import('toolwarden');
const port = {
  listTools: async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] }),
  callTool: async (name, args) => ({ content: [{ type: 'text', text: `${name}: ${args.text}` }] }),
  onToolsChanged: () => () => {},
};
const { tools } = await fromMcpClient(port);
const runtime = createToolRuntime({ tools });
const good = await runtime.executeToolCall({ name: 'echo', arguments: { text: 'hi' } });
const bad = await runtime.executeToolCall({ name: 'echo', arguments: {} });
if (good.content !== 'echo: hi' || bad.code !== 'INVALID_ARGUMENTS') throw new Error(`toolwarden/mcp gave ${good.content} / ${bad.code}`);
EOF
node mcp.mjs || fail "toolwarden/mcp without @modelcontextprotocol/sdk does not load, or its guarded call failed"
cat >cjs.cjs <<'EOF'
const entries = { toolwarden: 'defineTool', 'toolwarden/audit': 'auditListener', 'toolwarden/report': 'reportAuditLog', 'toolwarden/bfcl': 'fromBfclFunctions', 'toolwarden/check': 'checkTools',
  'toolwarden/formats': 'fromOpenAiTools', 'toolwarden/testing': 'ScriptedModel', 'toolwarden/sqlite': 'createSqliteStore',
  'toolwarden/redis': 'createRedisStore', 'toolwarden/postgres': 'createPostgresStore', 'toolwarden/dbos': 'durableTurns', 'toolwarden/otel': 'otelInstrumentation', 'toolwarden/ai-sdk': 'guardTools',
  'toolwarden/mcp': 'fromMcpClient', 'toolwarden/ports': undefined };
const [major, minor] = process.versions.node.split('.').map(Number);
const requiresEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
for (const [entry, name] of Object.entries(entries)) {
  try {
    const loaded = require(entry);
    // toolwarden/ports holds types only: it loads, and has nothing to call.
    if (name !== undefined && typeof loaded[name] !== 'function') throw new Error(`${entry} has no ${name}`);
  } catch (error) {
    // Before require(esm), Node says itself that the package is ESM and to use import().
    if (requiresEsm || error.code !== 'ERR_REQUIRE_ESM') throw error;
  }
}
EOF
node cjs.cjs || fail "require() of an entry failed"
cat >types.ts <<'EOF'
import type { AuditRecord } from 'toolwarden/audit';
import type { AuditReport } from 'toolwarden/report';
import type { BfclFunction } from 'toolwarden/bfcl';
import type { CheckReport } from 'toolwarden/check';
import type { OpenAiTool } from 'toolwarden/formats';
import type { OtelInstrumentationOptions } from 'toolwarden/otel';
import type { FromAiSdkModelOptions, GuardToolsOptions } from 'toolwarden/ai-sdk';
import type { FromMcpClientOptions, McpClientPort, McpProxy, ProxyConfig } from 'toolwarden/mcp';
import type { PostgresStoreOptions } from 'toolwarden/postgres';
import type { DurableTurnsOptions } from 'toolwarden/dbos';
import type { RedisStoreOptions } from 'toolwarden/redis';
import type { SqliteStoreOptions } from 'toolwarden/sqlite';
import type { ScriptedModelOptions } from 'toolwarden/testing';
import type { StoreEntry, StreamingModel } from 'toolwarden/ports';
import { defineTool, type Tool, type ToolDefinition } from 'toolwarden';
export const tool: Tool<{ city: string }, string> = defineTool({
  name: 'weather',
  description: 'The weather in a city.',
  effect: 'read',
  input: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }: { city: string }) => `sunny in ${city}`,
});
export type Used = [FromAiSdkModelOptions, AuditRecord, AuditReport, BfclFunction, CheckReport, OpenAiTool, ScriptedModelOptions, SqliteStoreOptions, RedisStoreOptions, PostgresStoreOptions, DurableTurnsOptions, OtelInstrumentationOptions, GuardToolsOptions, ToolDefinition<{ city: string }, string>, FromMcpClientOptions, McpClientPort, McpProxy, ProxyConfig, StoreEntry, StreamingModel];
EOF
cat >tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "skipLibCheck": true,
    "types": [],
    "noEmit": true
  },
  "files": ["types.ts"]
}
EOF
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json || fail "the types of an entry do not resolve"

printed="$(npx --no-install toolwarden --version)"
[ "$printed" = "$version" ] || fail "npx toolwarden --version printed '$printed', expected '$version'"
echo "check-package: every entry imports, requires and type-checks; toolwarden --version prints $version"
