import { DEFAULT_DEMO_DATABASE } from '../core/defaults.js';
import { StoreError } from '../core/errors/store-error.js';
import { runApprovalDemo } from '../demo/approvals/run-approval-demo.js';
import { runDurableDemo } from '../demo/durable/run-durable-demo.js';
import { runReferenceProbe } from '../demo/run-reference-probe.js';
import { runCheckCommand } from './check-command.js';
import type { CommandIo } from './command-io.js';
import { runGatewayCommand } from './gateway-command.js';
import { runMcpProxyCommand } from './mcp-proxy-command.js';
import { packageVersion } from './package-version.js';
import { runReportCommand } from './report-command.js';
import { runRunCommand } from './run-command.js';

export const USAGE = `Usage: toolwarden <command>

Commands:
  demo              run the Spring AI 2.0.1 reference experiment on the execution chain (no model, no API key)
  demo approvals    pause a run for approval, keep it in SQLite, approve it in a second process, replay it
  demo durable [--database <postgres-url>]
                    kill a worker mid-turn (a DBOS workflow on PostgreSQL) and resume the turn in another:
                    which steps ran once, which were skipped (needs @dbos-inc/dbos-sdk@5 and pg@8)
  check <module>    check the tools a module exports against their contracts (--json, --junit; see check --help)
  run <prompt>      the guarded loop against an OpenAI-compatible server (--base-url, --model, --tools; see run --help)
  mcp-proxy [--config toolwarden.json] [--listen HOST:PORT] [-- <server command> | --url <url>]
                    an MCP server (stdio or Streamable HTTP) guarding MCP servers' tools (see mcp-proxy --help)
  gateway --config gateway.json
                    an HTTP gateway in front of a model provider guarding an app's tool loop (see gateway --help)
  report <log>      read an audit log: where to set the ceiling, repeats, top tools, stops (see report --help)
  help              show this text
  --version, -v     print toolwarden's version
`;

/** The `toolwarden` command line without the process: returns the exit code (0 ok, 1 failed, 2 usage error). */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = argv;
  const usageError = async (message: string): Promise<number> => {
    await io.stderr(`toolwarden: ${message}\n\n${USAGE}`);
    return 2;
  };
  switch (command) {
    case 'demo': {
      const [scenario, ...extra] = rest;
      if (extra.length > 0 && scenario !== 'durable')
        return usageError(`unknown argument for demo: ${extra[0]}`);
      if (scenario === 'approvals') {
        let facts: Awaited<ReturnType<typeof runApprovalDemo>>;
        try {
          facts = await runApprovalDemo();
        } catch (error) {
          // The SQLite driver is an optional peer: say how to install it.
          if (!StoreError.isInstance(error)) throw error;
          await io.stderr(`toolwarden: demo approvals: ${error.message}\n`);
          return 1;
        }
        await io.stdout(facts.map(([key, value]) => `${key}=${oneLine(value)}\n`).join(''));
        return 0;
      }
      if (scenario === 'durable') return durableDemo(extra, io);
      if (scenario !== undefined) {
        return usageError(`unknown demo: ${scenario} (try: demo, demo approvals, demo durable)`);
      }
      const facts = await runReferenceProbe();
      await io.stdout(facts.map(([key, value]) => `${key}=${oneLine(value)}\n`).join(''));
      return 0;
    }
    case 'check':
      return runCheckCommand(rest, io);
    case 'report':
      return runReportCommand(rest, io);
    case 'mcp-proxy':
      return runMcpProxyCommand(rest, io);
    case 'gateway':
      return runGatewayCommand(rest, io);
    case 'run':
      return runRunCommand(rest, io, {
        ...(io.signal === undefined ? {} : { signal: io.signal }),
        live: io.stderrIsTty === true,
      });
    case '--version':
    case '-v':
      if (rest.length > 0) return usageError(`unknown argument for ${command}: ${rest[0]}`);
      await io.stdout(`${await packageVersion()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      await io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    default:
      return usageError(`unknown command: ${command}`);
  }
}

function oneLine(value: string): string {
  return value.replace(/\r?\n/g, '\\n');
}

/** `toolwarden demo durable [--database <postgres-url>]`: the facts, or why it could not run (exit 1). */
async function durableDemo(argv: readonly string[], io: CommandIo): Promise<number> {
  const [flag, url = DEFAULT_DEMO_DATABASE, ...extra] = argv;
  if (
    (flag !== undefined && flag !== '--database') ||
    extra.length > 0 ||
    !/^postgres(?:ql)?:\/\/\S+$/.test(url)
  ) {
    await io.stderr(`toolwarden: usage: toolwarden demo durable [--database <postgres-url>]\n`);
    return 2;
  }
  let facts: Awaited<ReturnType<typeof runDurableDemo>>;
  try {
    facts = await runDurableDemo(url);
  } catch (error) {
    await io.stderr(
      `toolwarden: demo durable: ${error instanceof Error ? error.message : String(error)}\n` +
        'It needs PostgreSQL (--database, default postgres://postgres@127.0.0.1:5432/postgres) and ' +
        'npm install @dbos-inc/dbos-sdk@5 pg@8.\n',
    );
    return 1;
  }
  await io.stdout(facts.map(([key, value]) => `${key}=${oneLine(value)}\n`).join(''));
  return 0;
}
