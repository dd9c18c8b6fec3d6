#!/usr/bin/env node
import type { CommandIo } from './command-io.js';
import { runCli } from './run-cli.js';

/** After a command finished, a tool's leftover timer or socket must not keep the process alive for long. */
const EXIT_GRACE_MS = 500;

// `run` ends its loop as `ABORTED` on the first Ctrl-C (the answer so far is printed); a second one exits.
const interrupt = new AbortController();
if (process.argv[2] === 'mcp-proxy' || process.argv[2] === 'gateway') {
  // The proxy closes its session and its server on Ctrl-C or a TERM (an MCP client ending it); the
  // gateway lets its requests under way finish, then closes.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => interrupt.abort(new Error(`interrupted (${signal})`)));
} else if (process.argv[2] === 'run') {
  process.once('SIGINT', () => {
    interrupt.abort(new Error('interrupted (Ctrl-C)'));
    process.once('SIGINT', () => process.exit(130));
  });
}

const io: CommandIo = {
  cwd: process.cwd(),
  stderrIsTty: process.stderr.isTTY === true,
  signal: interrupt.signal,
  stdout: (text) => write(process.stdout, text),
  stderr: (text) => write(process.stderr, text),
};

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    stream.write(text, () => resolve());
  });
}

// A closed pipe (`toolwarden demo | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // Output is written; if checked tool code left work pending (a timer, a socket), exit anyway.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    process.stderr.write(
      `toolwarden: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
