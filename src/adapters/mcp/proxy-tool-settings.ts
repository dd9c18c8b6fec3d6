import type { StandardSchemaV1 } from '@standard-schema/spec';
import { createToolRuntime, type ToolRuntime } from '../../chain/runtime.js';
import type { SchemaCompiler } from '../../schema/schema-compiler.js';
import type { AnyTool } from '../../tools/define-tool.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import type { McpToolResult } from './mcp-tool-result.js';
import type { McpToolSettings } from './mcp-tool-settings.js';
import type { ProxyConfig } from './proxy/proxy-config-types.js';
import type { ProxyResources } from './proxy-resources.js';
import { structuredContentContract } from './structured-content-contract.js';

/** A contract every result meets: `outputContracts` says `"none"` for the tool. */
const UNCHECKED: StandardSchemaV1<unknown, McpToolResult> = {
  '~standard': {
    version: 1,
    vendor: 'toolwarden-mcp-proxy',
    validate: (value) => ({ value: value as McpToolResult }),
  },
};

/**
 * What the config sets for one upstream tool in the proxy's chain: its timeout, its output contract, and,
 * for an idempotent write, the write effect with deduplication (scoped by the session id the proxy passes).
 * Every other tool runs each call: the chain deduplicates write tools by default, the proxy only those listed.
 */
export function proxyToolSettings(
  config: ProxyConfig,
  compiler: SchemaCompiler,
): (info: McpToolInfo) => McpToolSettings {
  return (info) => {
    const name = info.originalName;
    const contract = config.outputContracts.tools[name] ?? { kind: config.outputContracts.default };
    const idempotent = config.idempotentWrites.tools.includes(name);
    return {
      timeoutMs: config.timeouts.tools[name] ?? config.timeouts.defaultMs,
      ...outputOf(contract, compiler),
      ...(idempotent
        ? { effect: 'write' as const, idempotency: { ttlMs: config.idempotentWrites.ttlMs } }
        : { idempotency: false as const }),
    };
  };
}

function outputOf(
  contract: ProxyConfig['outputContracts']['tools'][string],
  compiler: SchemaCompiler,
): Pick<McpToolSettings, 'output'> {
  switch (contract.kind) {
    case 'from-server':
      return {};
    case 'none':
      return { output: UNCHECKED };
    case 'schema':
      return { output: structuredContentContract(contract.schema, compiler) };
    default: {
      const never: never = contract;
      return never;
    }
  }
}

/**
 * The runtime the proxy's calls run in: the upstream's tools (each with `proxyToolSettings`), the store of
 * the config, and the session's limits (`limits.perSession`): counted in the store under the session's
 * id, so with a shared store and a stable session id they hold across proxy instances, as the idempotency
 * records do. No turn limits apply: the proxy's calls have no turn.
 */
export function proxyRuntime(
  tools: readonly AnyTool[],
  config: ProxyConfig,
  resources: Pick<ProxyResources, 'store' | 'wrapToolExecution'>,
  /** The chain's name of a tool the config names as the client sees it (`gh.echo` is `gh_echo` in the chain). */
  chainName: (name: string) => string = (name) => name,
): ToolRuntime {
  const { limits } = config;
  const byTool = Object.fromEntries(
    Object.entries(limits.tools).map(([name, limit]) => [chainName(name), limit]),
  );
  return createToolRuntime({
    tools,
    store: resources.store,
    limits: { perSession: { perTool: limits.perTool, total: limits.total, byTool } },
    showErrorMessages: !config.redactErrors,
    ...(resources.wrapToolExecution === undefined ? {} : { wrapToolExecution: resources.wrapToolExecution }),
  });
}
