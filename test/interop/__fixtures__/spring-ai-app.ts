// The Spring AI interop app (interop/spring-ai/) as the tests run it: built by its build.sh when the jar is
// missing or older than its sources, then `java -jar` with only the model's base URL given, its last line
// of standard output read as the run's JSON summary.
import { execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../interop/spring-ai');

/** The executable jar build.sh makes. */
export const SPRING_AI_JAR = join(APP_DIR, 'target/spring-ai-app.jar');

/** What `OrderTools.readDeploymentConfig` returns holds these (fixtures shaped like real keys). */
export const SPRING_AI_APP_SECRETS = [
  'AKIAZ7Q3LMN4RT8VXW2Y',
  'sk-live-9fQ2xW7bN4mK8pL3rT6vY1zA5cD0eF',
] as const;

/** The tools the app registers, as the model sees them. */
export type SpringAiTool =
  | 'counted'
  | 'echo'
  | 'explode'
  | 'noArgs'
  | 'queryOrderStatus'
  | 'readDeploymentConfig';

/** The JSON line the app prints last. */
export interface SpringAiAppSummary {
  /** The answer Spring AI's `ChatClient` returned; null when the call threw. */
  readonly answer: string | null;
  /** The final generation's finish reason (`STOP`, or Spring AI's `toolCallLimitExceeded`). */
  readonly finishReason: string | null;
  /** How often each tool ran, every tool named. */
  readonly calls: Readonly<Record<SpringAiTool, number>>;
  /** The exception that reached the app, if any. */
  readonly error: { readonly class: string; readonly message: string } | null;
}

/** One run of the app. */
export interface SpringAiAppRun {
  /** The process's exit status (0: the call returned; 1: it threw). */
  readonly status: number | null;
  readonly summary: SpringAiAppSummary;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Builds the jar when it is missing or stale (build.sh decides; with Maven's local repository warm and
 * the sources unchanged it returns at once) and returns what build.sh printed (its build time).
 */
export async function buildSpringAiApp(): Promise<string> {
  const { stderr } = await promisify(execFile)('bash', [join(APP_DIR, 'build.sh')], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stderr.trim();
}

/**
 * How long one run may take before the fixture kills the JVM (41 rounds take about 10 s here); a test that
 * runs the app gives itself longer (`SPRING_AI_TEST_TIMEOUT_MS`), so the kill, not vitest's timeout, ends
 * a stuck run and no JVM outlives its test.
 */
const RUN_TIMEOUT_MS = 120_000;

/** The timeout for a test that runs the app once. */
export const SPRING_AI_TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 30_000;

/**
 * Runs the app once against `baseUrl` (what `spring.ai.openai.base-url` takes: Spring AI 2.0.1 posts to
 * `<base-url>/chat/completions`, so an OpenAI-style provider's URL ends in `/v1`), with `apiKey` as
 * `spring.ai.openai.api-key` and `prompt` as the user message.
 */
export function runSpringAiApp(options: {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly prompt?: string;
  /** Sent as `x-toolwarden-session` on each request (a per-call `OpenAiChatOptions.customHeaders`). */
  readonly session?: string;
}): Promise<SpringAiAppRun> {
  const args = [
    // Startup speed over peak speed: each run is one short conversation.
    '-XX:TieredStopAtLevel=1',
    '-jar',
    SPRING_AI_JAR,
    `--spring.ai.openai.base-url=${options.baseUrl}`,
    `--spring.ai.openai.api-key=${options.apiKey ?? 'sk-test-not-a-real-key'}`,
    ...(options.prompt === undefined ? [] : [`--app.prompt=${options.prompt}`]),
    ...(options.session === undefined ? [] : [`--app.session=${options.session}`]),
  ];
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the fake provider answering the app runs on this process's event loop.
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, RUN_TIMEOUT_MS);
    process.once('exit', kill);
    const settle = () => {
      clearTimeout(timer);
      process.removeListener('exit', kill);
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('close', (status) => {
      settle();
      const line = stdout
        .trim()
        .split('\n')
        .reverse()
        .find((candidate) => candidate.startsWith('{"answer"'));
      if (line === undefined) {
        reject(new Error(`the Spring AI app printed no summary (exit ${status})\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ status, summary: JSON.parse(line) as SpringAiAppSummary, stdout, stderr });
    });
  });
}
