import { DEFAULT_MCP_MAX_LIST_PAGES } from '../../core/defaults.js';
import { type NamespaceSeparator, namespaceToolNames } from './proxy/namespace-tools.js';
import type { UpstreamMember } from './upstream-member.js';

/** The prompts and resources of the upstreams, passed through: listed together, each request routed. */
export interface UpstreamPassthrough {
  listPrompts(signal: AbortSignal): Promise<{ prompts: unknown[] }>;
  getPrompt(
    params: { readonly name: string; readonly arguments?: unknown },
    signal: AbortSignal,
  ): Promise<unknown>;
  listResources(signal: AbortSignal): Promise<{ resources: unknown[] }>;
  listResourceTemplates(signal: AbortSignal): Promise<{ resourceTemplates: unknown[] }>;
  readResource(params: { readonly uri: string }, signal: AbortSignal): Promise<unknown>;
  /** `resources/subscribe` and `resources/unsubscribe`, sent to the server of the URI (as `readResource`). */
  subscribe(params: { readonly uri: string }, signal: AbortSignal): Promise<unknown>;
  unsubscribe(params: { readonly uri: string }, signal: AbortSignal): Promise<unknown>;
}

/** One upstream as the passthrough sees it: its namespace (undefined: names unchanged) and its connection. */
export interface PassthroughEntry {
  readonly namespace: string | undefined;
  readonly member: UpstreamMember;
}

/** Why a prompt or a resource cannot be served: answered as a JSON-RPC error (MCP's -32002, or invalid params). */
export class PassthroughError extends Error {
  override readonly name = 'PassthroughError';
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Prompts and resources pass through unchanged, but for names: a prompt's name is namespaced as a tool's
 * is (`github.summarize`), and `prompts/get` is routed back by it. A resource's URI is kept as the server
 * gave it (URIs are already global); `resources/read` goes to the server that listed the URI, or, with one
 * server connected, to it (URIs made from its templates). Each list reads every page of every connected
 * server that declared the capability; a server whose list fails is left out of that answer. They are
 * not tool calls: no limit, guard or audit record applies to them.
 */
export function createPassthrough(
  entries: readonly PassthroughEntry[],
  separator: NamespaceSeparator,
): UpstreamPassthrough {
  let promptRoutes = new Map<string, { member: UpstreamMember; name: string }>();
  let resourceRoutes = new Map<string, UpstreamMember>();

  const listAll = async (
    member: UpstreamMember,
    method: string,
    key: string,
    signal: AbortSignal,
  ): Promise<unknown[]> => {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < DEFAULT_MCP_MAX_LIST_PAGES; page++) {
      const send = member.request;
      if (send === undefined) return items;
      const answer = (await send(method, cursor === undefined ? {} : { cursor }, signal)) as Record<
        string,
        unknown
      >;
      const list = answer?.[key];
      if (!Array.isArray(list)) return items;
      items.push(...list);
      const next = answer.nextCursor;
      if (typeof next !== 'string' || next === '') return items;
      cursor = next;
    }
    return items;
  };

  const eachServing = async (
    capability: 'prompts' | 'resources',
    method: string,
    key: string,
    signal: AbortSignal,
  ): Promise<{ entry: PassthroughEntry; items: unknown[] }[]> => {
    const serving = entries.filter(({ member }) => member.capabilities?.[capability] !== undefined);
    const lists = await Promise.all(
      serving.map(async (entry) => ({
        entry,
        items: await listAll(entry.member, method, key, signal).catch(() => []),
      })),
    );
    return lists;
  };

  const listPrompts = async (signal: AbortSignal) => {
    const prompts: unknown[] = [];
    const routes = new Map<string, { member: UpstreamMember; name: string }>();
    for (const { entry, items } of await eachServing('prompts', 'prompts/list', 'prompts', signal)) {
      const named = items.filter(hasName);
      const toClient =
        entry.namespace === undefined
          ? new Map(named.map((item) => [item.name, item.name]))
          : namespaceToolNames(
              entry.namespace,
              separator,
              named.map((item) => item.name),
            ).toClient;
      for (const item of named) {
        const client = toClient.get(item.name);
        if (client === undefined || routes.has(client)) continue;
        routes.set(client, { member: entry.member, name: item.name });
        prompts.push(client === item.name ? item : { ...item, name: client });
      }
    }
    promptRoutes = routes;
    return { prompts };
  };

  const listResources = async (signal: AbortSignal) => {
    const resources: unknown[] = [];
    const routes = new Map<string, UpstreamMember>();
    for (const { entry, items } of await eachServing('resources', 'resources/list', 'resources', signal)) {
      for (const item of items) {
        const uri = (item as { uri?: unknown } | null)?.uri;
        if (typeof uri !== 'string' || routes.has(uri)) continue;
        routes.set(uri, entry.member);
        resources.push(item);
      }
    }
    resourceRoutes = routes;
    return { resources };
  };

  /** A request about one resource, sent to the server that listed its URI (with one server: to it). */
  const toServerOf = async (method: string, params: { readonly uri: string }, signal: AbortSignal) => {
    const connected = entries.filter(({ member }) => member.request !== undefined);
    let member = connected.length === 1 ? connected[0]?.member : resourceRoutes.get(params.uri);
    if (member === undefined) {
      await listResources(signal);
      member = resourceRoutes.get(params.uri);
    }
    const send = member?.request;
    if (send === undefined)
      throw new PassthroughError(-32002, `Resource not found: ${params.uri.slice(0, 200)}`);
    return send(method, params, signal);
  };

  return {
    listPrompts,
    async getPrompt(params, signal) {
      if (!promptRoutes.has(params.name)) await listPrompts(signal);
      const route = promptRoutes.get(params.name);
      const send = route?.member.request;
      if (route === undefined || send === undefined)
        throw new PassthroughError(-32602, `Unknown prompt: ${params.name.slice(0, 200)}`);
      return send('prompts/get', { ...params, name: route.name }, signal);
    },
    listResources,
    async listResourceTemplates(signal) {
      const lists = await eachServing('resources', 'resources/templates/list', 'resourceTemplates', signal);
      return { resourceTemplates: lists.flatMap(({ items }) => items) };
    },
    readResource: (params, signal) => toServerOf('resources/read', params, signal),
    subscribe: (params, signal) => toServerOf('resources/subscribe', params, signal),
    unsubscribe: (params, signal) => toServerOf('resources/unsubscribe', params, signal),
  };
}

function hasName(item: unknown): item is { readonly name: string } {
  return typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string';
}
