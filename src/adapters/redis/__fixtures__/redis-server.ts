import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';

/** A `redis-server` of a test's own, on a free port, holding nothing on disk. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /**
   * Stops the server and waits until the process has exited: its data is gone, or with `keepData` saved
   * (`SHUTDOWN SAVE`) for the next `restart` to load, as a server with persistence that went down.
   */
  stop(options?: { readonly keepData?: boolean }): Promise<void>;
  /**
   * Starts it again on the same port and waits until it answers PING: empty, or with `keepData` holding
   * what it held (saved with `SHUTDOWN SAVE` and loaded back), as a server restarted with persistence.
   */
  restart(options?: { readonly keepData?: boolean }): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as a hung server. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
}

/** How long a starting server may take to answer PING before the fixture gives up (a slow, busy machine). */
const START_TIMEOUT_MS = 20_000;

/**
 * Starts `redis-server --port <free port> --save "" --appendonly no` in a temporary folder and waits until
 * it answers PING. For tests that stop and restart Redis (outages) or count its commands, which must not
 * touch the shared server at 6379. The process is killed when the test process exits, should a test fail
 * before it stops it.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let running: { child: ChildProcess; dir: string } | undefined;
  /** The folder of a server stopped with its data kept: the next start loads its dump. */
  let kept: string | undefined;
  const killOnExit = () => running?.child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const start = async () => {
    const dir = kept ?? mkdtempSync(join(tmpdir(), 'tw-redis-'));
    kept = undefined;
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    running = { child, dir };
    const exited = new Promise<never>((_, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server on port ${port} exited (${code})`)));
    });
    exited.catch(() => {});
    await Promise.race([waitForPing(url), exited]);
  };

  /** Stops the server; with `keepData` it saves first and its folder (holding the dump) is kept for the next start. */
  const stop = async (keepData = false): Promise<void> => {
    const current = running;
    running = undefined;
    if (current === undefined) return;
    if (current.child.exitCode === null && current.child.signalCode === null) {
      const exited = new Promise((resolve) => current.child.once('exit', resolve));
      current.child.kill('SIGCONT');
      if (keepData) await shutdownSaving(url);
      else current.child.kill('SIGTERM');
      await exited;
    }
    if (keepData) kept = current.dir;
    else rmSync(current.dir, { recursive: true, force: true });
  };

  await start();
  return {
    url,
    port,
    stop: async (options = {}) => {
      await stop(options.keepData === true);
      if (options.keepData !== true) process.removeListener('exit', killOnExit);
    },
    restart: async (options = {}) => {
      await stop(options.keepData === true);
      await start();
    },
    pause: () => running?.child.kill('SIGSTOP'),
    resume: () => running?.child.kill('SIGCONT'),
  };
}

/** `SHUTDOWN SAVE`: the server writes its data to its folder's dump.rdb and exits (the reply never comes). */
async function shutdownSaving(url: string): Promise<void> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  await client.sendCommand(['SHUTDOWN', 'SAVE']).catch(() => {});
  if (client.isOpen) client.destroy();
}

/** A port nothing listens on now: the OS picks one, the fixture closes it again and hands it to Redis. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function waitForPing(url: string): Promise<void> {
  const giveUp = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 1_000 } });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch (error) {
      if (Date.now() > giveUp)
        throw new Error(`redis-server at ${url} did not answer PING`, { cause: error });
    } finally {
      if (client.isOpen) client.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The commands of one `countRoundTrips` window: how many, and their names in order (lower case). */
export interface RoundTrips {
  readonly count: number;
  readonly commands: readonly string[];
}

const COUNTER_NAME = 'tw-round-trip-counter';

/**
 * The commands clients sent to the server at `url` while `run` ran, each one a round trip: read from the
 * slow log with every command logged (`slowlog-log-slower-than 0`). Commands a Lua script calls appear
 * there too, under the script's client (`?:0`), and are left out, as are the counter's own. Use on a
 * private server (`startRedisServer`): every other client's commands count.
 */
export async function countRoundTrips(url: string, run: () => Promise<unknown>): Promise<RoundTrips> {
  const client = createClient({ url, name: COUNTER_NAME });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.sendCommand(['CONFIG', 'SET', 'slowlog-log-slower-than', '0', 'slowlog-max-len', '100000']);
    await client.sendCommand(['SLOWLOG', 'RESET']);
    await run();
    const entries = (await client.sendCommand(['SLOWLOG', 'GET', '-1'])) as unknown[][];
    const commands = entries
      .filter(([, , , , address, name]) => name !== COUNTER_NAME && !String(address).endsWith(':0'))
      .reverse()
      .map((entry) => String((entry[3] as unknown[])[0]).toLowerCase());
    return { count: commands.length, commands };
  } finally {
    await client.sendCommand(['CONFIG', 'SET', 'slowlog-log-slower-than', '10000', 'slowlog-max-len', '128']);
    client.destroy();
  }
}
