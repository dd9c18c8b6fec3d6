import { createHash } from 'node:crypto';
import { AUDIT_SCHEMA_VERSION, type AuditToolDefinitionRecord } from '../../../audit/audit-record.js';
import type { AuditSink } from '../../../audit/audit-sink.js';
import { StoreError } from '../../../core/errors/store-error.js';
import type { Store } from '../../../core/store.js';
import { canonicalJson } from '../../../serialize/canonical-json.js';
import { storeKey } from '../../../store/store-key.js';
import type { Refusal } from './call-decision.js';
import type { ProxiedTool } from './mcp-shapes.js';
import type { PinsConfig } from './proxy-security-config.js';
import { PIN_DIGEST } from './read-proxy-security.js';
import { refusalOf } from './refusal-text.js';

/** The version of a server's pin record in the store. */
const PIN_SCHEMA_VERSION = 1;
/** Tries of a pin record's compare-and-set before giving up (another proxy writes it at the same time). */
const MAX_WRITE_TRIES = 4;

/** A server's pinned definitions in the store: the client's tool name to its digest. */
interface PinRecord {
  readonly schemaVersion: typeof PIN_SCHEMA_VERSION;
  readonly server: string;
  readonly tools: Readonly<Record<string, string>>;
}

/** The definitions seen so far, checked against their pins (see `createToolPins`). */
export interface ToolPins {
  /**
   * Pins the tools not pinned yet (the first `tools/list` of a server, or a tool it added since) and
   * returns the tools the client is to see: under `onChange: "refuse"` a changed tool is left out.
   * Rejects when the store fails or holds a pin record it cannot read: nothing unpinned is let through.
   */
  review(tools: readonly ProxiedTool[]): Promise<ProxiedTool[]>;
  /** The refusal of a call to a tool withheld for its changed definition, or undefined. */
  refusal(name: string): Refusal | undefined;
  /** The digest now of a changed tool let through (`onChange: "flag"`), for its calls' audit records. */
  flagged(name: string): string | undefined;
}

/** `createToolPins`' options. */
export interface ToolPinsOptions {
  readonly config: PinsConfig;
  readonly store: Store;
  /** The server a client's tool name belongs to (its namespace, or the one server's command or URL). */
  readonly serverOf: (name: string) => string;
  readonly audit: AuditSink | undefined;
  readonly log: (line: string) => void;
}

/**
 * A tool's definition as pinned: SHA-256 of the canonical JSON of what the model reads and what the proxy
 * trusts (title, description, input and output schemas, annotations); the name is the record's key, and
 * `_meta` and icons are left out.
 */
export function toolDigest(tool: ProxiedTool): string {
  const { title, description, inputSchema, outputSchema, annotations } = tool as ProxiedTool & {
    readonly title?: unknown;
    readonly description?: unknown;
    readonly inputSchema?: unknown;
  };
  const text = canonicalJson({ title, description, inputSchema, outputSchema, annotations });
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * The pins of a proxy: the first `tools/list` of each server is recorded in the store (one record per
 * server, so proxies sharing a store share the pins), and a tool whose definition later differs is
 * withheld or flagged until `pins.approve` lists its new digest, which then becomes the pin. Each change
 * is written to the audit (`kind: "tool-definition"`) and the log once per proxy.
 */
export function createToolPins(options: ToolPinsOptions): ToolPins {
  const { config, store, log } = options;
  let withheld = new Map<string, Refusal>();
  let flagged = new Map<string, string>();
  /** Changes already told (`tool digest`): a list read again tells nothing new. */
  const told = new Set<string>();

  const tell = (
    server: string,
    name: string,
    digest: string,
    pinned: string,
    outcome: AuditToolDefinitionRecord['outcome'],
  ) => {
    const seen = `${outcome} ${name} ${digest}`;
    if (told.has(seen)) return;
    told.add(seen);
    options.audit?.append({
      schemaVersion: AUDIT_SCHEMA_VERSION,
      kind: 'tool-definition',
      at: new Date().toISOString(),
      code: 'TOOL_DEFINITION_CHANGED',
      server,
      toolName: name,
      outcome,
      digest,
      pinnedDigest: pinned,
    });
    const what =
      outcome === 'approved'
        ? 'its new definition is approved and pinned'
        : `${outcome === 'refused' ? 'withheld' : 'let through (flagged)'}; to approve it, add "${digest}" to pins.approve["${name}"]`;
    log(`server ${server}: the definition of tool ${name} changed since it was pinned (${pinned}); ${what}`);
  };

  return {
    async review(tools) {
      const byServer = new Map<string, ProxiedTool[]>();
      for (const tool of tools) {
        const server = options.serverOf(tool.name);
        const group = byServer.get(server);
        if (group === undefined) byServer.set(server, [tool]);
        else group.push(tool);
      }
      const nextWithheld = new Map<string, Refusal>();
      const nextFlagged = new Map<string, string>();
      for (const [server, listed] of byServer) {
        const digests = new Map(listed.map((tool) => [tool.name, toolDigest(tool)]));
        const pinned = await pinServer(store, server, digests, config);
        for (const [name, digest] of digests) {
          const before = pinned.previous.get(name);
          if (before === undefined || before === digest) continue;
          if (pinned.approved.has(name)) {
            tell(server, name, digest, before, 'approved');
            continue;
          }
          tell(server, name, digest, before, config.onChange === 'refuse' ? 'refused' : 'flagged');
          if (config.onChange === 'refuse')
            nextWithheld.set(name, refusalOf({ reason: 'tool-changed', tool: name }));
          else nextFlagged.set(name, digest);
        }
      }
      withheld = nextWithheld;
      flagged = nextFlagged;
      return tools.filter((tool) => !withheld.has(tool.name));
    },
    refusal: (name) => withheld.get(name),
    flagged: (name) => flagged.get(name),
  };
}

/**
 * Reads a server's pin record and writes what is new in it (tools not pinned yet, approved digests) by
 * compare-and-set, reading again when another proxy wrote first. `previous`: the pins the tools are
 * judged against; `approved`: the tools whose changed digest `pins.approve` lists.
 */
async function pinServer(
  store: Store,
  server: string,
  digests: ReadonlyMap<string, string>,
  config: PinsConfig,
): Promise<{ previous: ReadonlyMap<string, string>; approved: ReadonlySet<string> }> {
  const key = storeKey('mcp-pins', server);
  for (let attempt = 0; attempt < MAX_WRITE_TRIES; attempt++) {
    const entry = await store.get(key);
    const record = entry === undefined ? undefined : readRecord(entry.value, server, key);
    const previous = new Map(Object.entries(record?.tools ?? {}));
    const approved = new Set<string>();
    // No prototype: a tool named `__proto__` is only a name.
    const next: Record<string, string> = Object.create(null);
    for (const [name, digest] of previous) next[name] = digest;
    let added = 0;
    for (const [name, digest] of digests) {
      const before = previous.get(name);
      if (before === undefined) {
        next[name] = digest;
        added++;
      } else if (before !== digest && isApproved(config, name, digest)) {
        next[name] = digest;
        approved.add(name);
      }
    }
    if (added === 0 && approved.size === 0) return { previous, approved };
    const value: PinRecord = { schemaVersion: PIN_SCHEMA_VERSION, server, tools: next };
    const written = await store.set(key, value, { ifVersion: entry?.version ?? 0 });
    // A tool pinned is not news (the log says only what goes wrong); a change is.
    if (written.ok) return { previous, approved };
  }
  throw new StoreError({
    reason: 'unavailable',
    operation: 'set',
    message: `the pins of server ${server} kept changing under another writer`,
  });
}

/** A pin record as toolwarden writes it; anything else is a corrupt store, refused rather than trusted. */
function readRecord(value: unknown, server: string, key: string): PinRecord {
  const record = value as Partial<PinRecord> | null;
  const tools = record?.tools;
  const valid =
    typeof record === 'object' &&
    record !== null &&
    record.schemaVersion === PIN_SCHEMA_VERSION &&
    typeof tools === 'object' &&
    tools !== null &&
    !Array.isArray(tools) &&
    Object.values(tools).every((digest) => typeof digest === 'string' && PIN_DIGEST.test(digest));
  if (!valid)
    throw new StoreError({
      reason: 'corrupt',
      operation: 'get',
      message: `the pinned tool definitions of server ${server} (${key}) are not a pin record of version ${PIN_SCHEMA_VERSION}; delete the key to pin the server again`,
    });
  return record as PinRecord;
}

function isApproved(config: PinsConfig, name: string, digest: string): boolean {
  return Object.hasOwn(config.approve, name) && config.approve[name]?.includes(digest) === true;
}
