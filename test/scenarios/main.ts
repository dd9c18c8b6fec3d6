import { runScenariosCommand } from './run-scenarios-command.js';

// `npm run scenarios`: the loop scenario suite, run from the repository through tsx.
const write =
  (stream: NodeJS.WriteStream) =>
  (text: string): Promise<void> =>
    new Promise((resolve) => {
      stream.write(text, () => resolve());
    });

runScenariosCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: write(process.stdout),
  stderr: write(process.stderr),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `scenarios: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
