#!/usr/bin/env node
import { runReferenceProbe } from '../demo/run-reference-probe.js';

const USAGE = `Usage: toolwarden <command>

Commands:
  demo      run the Spring AI 2.0.1 reference experiment on the execution chain (no model, no API key)
  help      show this text
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'demo': {
      if (rest.length > 0) return usageError(`unknown argument for demo: ${rest[0]}`);
      for (const [key, value] of await runReferenceProbe())
        process.stdout.write(`${key}=${oneLine(value)}\n`);
      return 0;
    }
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

// A closed pipe (`toolwarden demo | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `toolwarden: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
