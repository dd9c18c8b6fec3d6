import type { AuditErrorListener, AuditSink } from '../../audit/audit-sink.js';
import { createJsonlAuditSink } from '../../audit/jsonl-audit-sink.js';
import type { WrapToolExecution } from '../../chain/wrap-tool-execution.js';
import type { Store } from '../../core/store.js';
import { MemoryStore } from '../../store/memory-store.js';
import type { ProxyConfig } from './proxy/proxy-config.js';

/** What a proxy opens from its config and closes at the end: the idempotency store, the audit sink, telemetry. */
export interface ProxyResources {
  readonly store: Store;
  readonly audit: AuditSink | undefined;
  readonly wrapToolExecution: WrapToolExecution | undefined;
  close(): Promise<void>;
}

/**
 * Opens what the config names. SQLite, Redis and OpenTelemetry are optional peers: they are imported only
 * when the config asks for them, so a proxy without them needs none installed.
 */
export async function openProxyResources(
  config: ProxyConfig,
  onAuditError: AuditErrorListener | undefined,
): Promise<ProxyResources> {
  const store = await openStore(config.idempotentWrites.store);
  const audit = await openAudit(config.audit, onAuditError);
  const wrapToolExecution = config.telemetry
    ? (await import('../../telemetry/otel-instrumentation.js')).otelInstrumentation().wrapToolExecution
    : undefined;
  return {
    store,
    audit,
    wrapToolExecution,
    async close() {
      await audit?.close();
      await store.close?.();
    },
  };
}

async function openStore(config: ProxyConfig['idempotentWrites']['store']): Promise<Store> {
  switch (config.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      return (await import('../sqlite/sqlite-store.js')).createSqliteStore({ path: config.path });
    case 'redis':
      return (await import('../redis/redis-store.js')).createRedisStore(
        { url: config.url },
        config.keyPrefix === undefined ? {} : { keyPrefix: config.keyPrefix },
      );
    default: {
      const never: never = config;
      return never;
    }
  }
}

async function openAudit(
  config: ProxyConfig['audit'],
  onError: AuditErrorListener | undefined,
): Promise<AuditSink | undefined> {
  if (config === false) return undefined;
  const options = onError === undefined ? {} : { onError };
  switch (config.kind) {
    case 'jsonl':
      return createJsonlAuditSink({ path: config.path, ...options });
    case 'sqlite':
      return (await import('../sqlite/sqlite-audit-sink.js')).createSqliteAuditSink({
        path: config.path,
        ...options,
      });
    default: {
      const never: never = config;
      return never;
    }
  }
}
