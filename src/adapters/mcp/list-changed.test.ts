// `notifications/tools/list_changed` refreshes the tools; the handle's refresh() and close().
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RawServer, rawServer, SUM_TOOL } from './__fixtures__/raw-server.js';
import { fromMcpClient } from './from-mcp-client.js';

let server: RawServer | undefined;
// A fake clock: "a notification changes nothing" is checked after time passes on it, which runs every
// promise and timer the notification could have started without waiting on a real timer.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** A server whose list is what `tools` holds when it is asked. */
async function changingServer(tools: { current: unknown[] }, line: 'v1' | 'v2' = 'v1') {
  server = await rawServer({ 'tools/list': () => ({ result: { tools: tools.current } }) }, line);
  return server;
}

function nextChange(): { promise: Promise<unknown>; listener: (change: unknown) => void } {
  let listener: (change: unknown) => void = () => {};
  const promise = new Promise<unknown>((resolve) => {
    listener = resolve;
  });
  return { promise, listener };
}

describe('listChanged', () => {
  it.each(['v1', 'v2'] as const)(
    'refreshes the tools when the server says its list changed (%s client)',
    async (line) => {
      const tools = { current: [SUM_TOOL] as unknown[] };
      const { client, notify } = await changingServer(tools, line);
      const change = nextChange();
      const mcp = await fromMcpClient(client, { onToolsChanged: change.listener });
      expect(mcp.tools.map((tool) => tool.name)).toEqual(['sum']);
      tools.current = [SUM_TOOL, { name: 'echo', inputSchema: { type: 'object' } }];
      await notify('notifications/tools/list_changed');
      const changed = (await change.promise) as { tools: readonly { name: string }[] };
      expect(changed.tools.map((tool) => tool.name)).toEqual(['sum', 'echo']);
      expect(mcp.tools.map((tool) => tool.name)).toEqual(['sum', 'echo']);
      mcp.close();
    },
  );

  it('keeps the old tools and reports the error when the new list cannot be read', async () => {
    const tools = { current: [SUM_TOOL] as unknown[] };
    const { client, notify } = await changingServer(tools);
    const change = nextChange();
    const mcp = await fromMcpClient(client, { onToolsChanged: change.listener });
    tools.current = 'broken' as unknown as unknown[];
    await notify('notifications/tools/list_changed');
    expect(await change.promise).toMatchObject({
      error: expect.objectContaining({ code: 'MCP_LIST_ERROR' }),
    });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['sum']);
  });

  it('chains a fallback handler set before, and close() stops listening and restores it', async () => {
    const tools = { current: [SUM_TOOL] as unknown[] };
    const { client, notify } = await changingServer(tools);
    const seen: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      seen.push(notification.method);
    };
    const previous = client.fallbackNotificationHandler;
    const changes: unknown[] = [];
    const change = nextChange();
    const mcp = await fromMcpClient(client, {
      onToolsChanged: (next) => {
        changes.push(next);
        change.listener(next);
      },
    });
    await notify('notifications/tools/list_changed');
    await change.promise;
    expect(seen).toEqual(['notifications/tools/list_changed']);
    expect(changes).toHaveLength(1);
    mcp.close();
    expect(client.fallbackNotificationHandler).toBe(previous);
    await notify('notifications/tools/list_changed');
    await vi.advanceTimersByTimeAsync(20);
    expect(changes).toHaveLength(1);
  });

  it('refresh() reads the list again; listen: false ignores notifications', async () => {
    const tools = { current: [SUM_TOOL] as unknown[] };
    const { client, notify, requests } = await changingServer(tools);
    const mcp = await fromMcpClient(client, { listen: false });
    tools.current = [];
    await notify('notifications/tools/list_changed');
    await vi.advanceTimersByTimeAsync(20);
    expect(mcp.tools).toHaveLength(1);
    expect(await mcp.refresh()).toEqual([]);
    expect(requests.filter((request) => request.method === 'tools/list')).toHaveLength(2);
  });
});
