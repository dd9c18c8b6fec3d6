#!/usr/bin/env node
import { loopScenariosReport } from '../demo/loop-scenarios/index.js';
import { runReferenceProbe } from '../demo/run-reference-probe.js';
import { type CommandIo, runCheckCommand } from './check-command.js';

const USAGE = `Usage: toolwarden <command>

Commands:
  demo              run the Spring AI 2.0.1 reference experiment on the execution chain (no model, no API key)
  demo loops        run the loop scenarios under the guard and under step caps 10/20/25, as a table
  check <module>    check the tools a module exports against their contracts (--json, --junit; see check --help)
  help              show this text
`;

/** After a command finished, a tool's leftover timer or socket must not keep the process alive for long. */
const EXIT_GRACE_MS = 500;

const io: CommandIo = {
  cwd: process.cwd(),
  stdout: (text) => write(process.stdout, text),
  stderr: (text) => write(process.stderr, text),
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'demo': {
      const [scenario, ...extra] = rest;
      if (extra.length > 0) return usageError(`unknown argument for demo: ${extra[0]}`);
      if (scenario === 'loops') {
        const report = await loopScenariosReport();
        process.stdout.write(`${report.table}\n`);
        return report.allCorrect ? 0 : 1;
      }
      if (scenario !== undefined) return usageError(`unknown demo: ${scenario} (try: demo, demo loops)`);
      for (const [key, value] of await runReferenceProbe()) {
        process.stdout.write(`${key}=${oneLine(value)}\n`);
      }
      return 0;
    }
    case 'check':
      return runCheckCommand(rest, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      return usageError(`unknown command: ${command}`);
  }
}

function usageError(message: string): number {
  process.stderr.write(`toolwarden: ${message}\n\n${USAGE}`);
  return 2;
}

function oneLine(value: string): string {
  return value.replace(/\r?\n/g, '\\n');
}

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

main(process.argv.slice(2)).then(
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
