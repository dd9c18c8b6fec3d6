import { POLLUTION_KEY } from './hostile-values.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';

type CrashEvent = 'uncaughtException' | 'unhandledRejection';
const CRASH_EVENTS: readonly CrashEvent[] = ['uncaughtException', 'unhandledRejection'];

/**
 * Catches what would kill the process (an uncaught exception, an unhandled rejection) while a campaign
 * runs: the listeners already installed (Node's default, vitest's) are set aside and put back on `stop`.
 */
export class CrashMonitor {
  readonly #seen: Finding[] = [];
  readonly #saved = new Map<CrashEvent, ((...args: unknown[]) => void)[]>();
  readonly #listener = (kind: CrashEvent) => (reason: unknown) => {
    this.#seen.push({
      oracle: 'crash',
      signature: `${kind}: ${signatureOf(reason)}`,
      detail: describeThrown(reason),
    });
  };
  readonly #listeners = new Map<CrashEvent, (reason: unknown) => void>();

  start(): void {
    for (const event of CRASH_EVENTS) {
      this.#saved.set(
        event,
        process.listeners(event as 'unhandledRejection') as ((...args: unknown[]) => void)[],
      );
      process.removeAllListeners(event);
      const listener = this.#listener(event);
      this.#listeners.set(event, listener);
      process.on(event, listener);
    }
  }

  stop(): void {
    for (const event of CRASH_EVENTS) {
      const listener = this.#listeners.get(event);
      if (listener !== undefined) process.off(event, listener);
      for (const saved of this.#saved.get(event) ?? []) process.on(event, saved);
    }
    this.#listeners.clear();
    this.#saved.clear();
  }

  /** What was caught since the last call. */
  take(): Finding[] {
    return this.#seen.splice(0, this.#seen.length);
  }
}

const PROTOTYPES: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
];
const baselines = PROTOTYPES.map(([, prototype]) => new Set(Reflect.ownKeys(prototype)));

/** The pollution oracle; cleans up what it finds, so one polluting run does not taint the next ones. */
function pollution(): Finding | undefined {
  const added: string[] = [];
  PROTOTYPES.forEach(([name, prototype], index) => {
    for (const key of Reflect.ownKeys(prototype)) {
      if (baselines[index]?.has(key)) continue;
      added.push(`${name}.${String(key)}`);
      delete (prototype as Record<PropertyKey, unknown>)[key];
    }
  });
  const inherited = (Object.create(Object.prototype) as Record<string, unknown>)[POLLUTION_KEY] !== undefined;
  if (added.length === 0 && !inherited) return undefined;
  return {
    oracle: 'prototype-pollution',
    signature: 'a built-in prototype gained a key',
    detail: added.join(', '),
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface EvaluateOptions {
  readonly deadlineMs: number;
  readonly monitor: CrashMonitor;
}

/**
 * Runs one case and applies every oracle: the target's own (on the outcome), then hangs (real timers: a
 * run must settle within the deadline), crashes (after two turns of the event loop, so an unhandled
 * rejection of this run is reported while it is still the current one) and pollution.
 */
export async function evaluateCase<Case>(
  target: FuzzTarget<Case>,
  spec: Case,
  { deadlineMs, monitor }: EvaluateOptions,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const run = target.start(spec);
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'hung' }), deadlineMs);
  });
  const settled = await Promise.race([
    run.promise.then(
      (value): Settled => ({ status: 'resolved', value }),
      (error: unknown): Settled => ({ status: 'rejected', error }),
    ),
    deadline,
  ]);
  clearTimeout(timer);
  const elapsed = performance.now() - started;
  if (settled.status === 'hung') {
    run.cancel();
    findings.push({
      oracle: 'hang',
      signature: `did not settle within the deadline`,
      detail: `${deadlineMs} ms`,
    });
  } else {
    if (elapsed > deadlineMs) {
      findings.push({
        oracle: 'hang',
        signature: 'settled only after the deadline (the event loop was blocked)',
        detail: `${Math.round(elapsed)} ms`,
      });
    }
    findings.push(...run.judge(settled));
  }
  await turn();
  await turn();
  findings.push(...monitor.take());
  const polluted = pollution();
  if (polluted !== undefined) findings.push(polluted);
  return findings;
}
