import fc from 'fast-check';
import { CrashMonitor, evaluateCase } from './evaluate-case.js';
import { type Finding, type FuzzTarget, ORACLES, type OracleName, type TargetName } from './oracle.js';

export interface CampaignOptions {
  readonly runs: number;
  readonly seed: number;
  /** A run that does not settle within this many milliseconds (real time) hangs. */
  readonly deadlineMs: number;
  /** Failure kinds (signatures) shrunk to a minimal counterexample, per oracle. */
  readonly reprosPerOracle: number;
  /** Wall-clock allowance for shrinking one counterexample. */
  readonly shrinkMs: number;
  /** Called every `progressEvery` runs. */
  readonly onProgress?: (done: number) => void;
  readonly progressEvery?: number;
}

/** One kind of failure: an oracle and a signature, how often it occurred, and its first occurrence. */
export interface FailureKind {
  readonly oracle: OracleName;
  readonly signature: string;
  runs: number;
  /** fast-check path of the first run that showed it (replay with the campaign's seed). */
  readonly firstPath: string;
  readonly firstDetail: string | undefined;
  repro?: Repro;
}

export interface Repro {
  /** The shrunk case, printed by fast-check, or undefined when the failure did not reproduce alone. */
  readonly counterexample: string | undefined;
  readonly path: string;
  readonly detail: string | undefined;
  readonly shrinks: number;
}

export interface CampaignReport {
  readonly target: TargetName;
  readonly runs: number;
  readonly seed: number;
  /** Time of the runs, and of the shrinking after them. */
  readonly runMs: number;
  readonly shrinkMs: number;
  /** Runs with at least one finding of each oracle. */
  readonly counts: Readonly<Record<OracleName, number>>;
  readonly kinds: readonly FailureKind[];
}

/**
 * A campaign: `runs` cases of one target from one seed, every oracle counted (not stopping at the first
 * failure), then the first occurrence of the most frequent failure kinds shrunk by fast-check, replayed
 * from its path. Process listeners catch crashes for the whole campaign.
 */
export async function runCampaign<Case>(
  target: FuzzTarget<Case>,
  options: CampaignOptions,
): Promise<CampaignReport> {
  const monitor = new CrashMonitor();
  const started = performance.now();
  const counts = Object.fromEntries(ORACLES.map((oracle) => [oracle, 0])) as Record<OracleName, number>;
  const kinds = new Map<string, FailureKind>();
  let runMs = 0;
  monitor.start();
  try {
    let index = 0;
    await fc.check(
      fc.asyncProperty(target.arbitrary, async (spec) => {
        const path = String(index++);
        const findings = await evaluateCase(target, spec, { deadlineMs: options.deadlineMs, monitor });
        record(findings, path, counts, kinds);
        if (options.onProgress !== undefined && index % (options.progressEvery ?? 1000) === 0)
          options.onProgress(index);
        return true;
      }),
      { seed: options.seed, numRuns: options.runs },
    );
    runMs = performance.now() - started;
    for (const kind of pickForRepro([...kinds.values()], options.reprosPerOracle)) {
      kind.repro = await shrink(target, kind, options, monitor);
    }
  } finally {
    monitor.stop();
  }
  return {
    target: target.name,
    runs: options.runs,
    seed: options.seed,
    runMs,
    shrinkMs: performance.now() - started - runMs,
    counts,
    kinds: [...kinds.values()].sort(
      (a, b) => ORACLES.indexOf(a.oracle) - ORACLES.indexOf(b.oracle) || b.runs - a.runs,
    ),
  };
}

function record(
  findings: readonly Finding[],
  path: string,
  counts: Record<OracleName, number>,
  kinds: Map<string, FailureKind>,
): void {
  const oracles = new Set<OracleName>();
  const signatures = new Set<string>();
  for (const finding of findings) {
    oracles.add(finding.oracle);
    const key = `${finding.oracle}\u0000${finding.signature}`;
    if (signatures.has(key)) continue;
    signatures.add(key);
    const kind = kinds.get(key);
    if (kind === undefined) {
      kinds.set(key, {
        oracle: finding.oracle,
        signature: finding.signature,
        runs: 1,
        firstPath: path,
        firstDetail: finding.detail,
      });
    } else kind.runs++;
  }
  for (const oracle of oracles) counts[oracle]++;
}

/** The most frequent kinds of each oracle. */
function pickForRepro(kinds: readonly FailureKind[], perOracle: number): FailureKind[] {
  return ORACLES.flatMap((oracle) =>
    kinds
      .filter((kind) => kind.oracle === oracle)
      .sort((a, b) => b.runs - a.runs)
      .slice(0, perOracle),
  );
}

async function shrink<Case>(
  target: FuzzTarget<Case>,
  kind: FailureKind,
  options: CampaignOptions,
  monitor: CrashMonitor,
): Promise<Repro> {
  const started = performance.now();
  // A hanging candidate costs the whole deadline: shrink hangs with a shorter one, to try more candidates.
  const deadlineMs = kind.oracle === 'hang' ? Math.min(options.deadlineMs, 500) : options.deadlineMs;
  let detail: string | undefined;
  const result = await fc.check(
    fc.asyncProperty(target.arbitrary, async (spec) => {
      // Out of time: report every further candidate as passing, which ends the shrinking where it is.
      if (performance.now() - started > options.shrinkMs) return true;
      const findings = await evaluateCase(target, spec, { deadlineMs, monitor });
      const same = findings.find(
        (finding) => finding.oracle === kind.oracle && finding.signature === kind.signature,
      );
      if (same !== undefined) detail = same.detail;
      return same === undefined;
    }),
    { seed: options.seed, path: kind.firstPath, numRuns: 1 },
  );
  if (!result.failed)
    return { counterexample: undefined, path: kind.firstPath, detail: kind.firstDetail, shrinks: 0 };
  return {
    counterexample: fc.stringify(result.counterexample?.[0]),
    path: result.counterexamplePath ?? kind.firstPath,
    detail,
    shrinks: result.numShrinks,
  };
}

/** Replays one case (the campaign's seed and a path) and returns its findings. */
export async function replayCase<Case>(
  target: FuzzTarget<Case>,
  options: { readonly seed: number; readonly path: string; readonly deadlineMs: number },
): Promise<{ readonly spec: string; readonly findings: readonly Finding[] }> {
  const monitor = new CrashMonitor();
  let spec = '';
  let findings: Finding[] = [];
  monitor.start();
  try {
    await fc.check(
      fc.asyncProperty(target.arbitrary, async (value) => {
        spec = fc.stringify(value);
        findings = await evaluateCase(target, value, { deadlineMs: options.deadlineMs, monitor });
        return true;
      }),
      { seed: options.seed, path: options.path, numRuns: 1 },
    );
  } finally {
    monitor.stop();
  }
  return { spec, findings };
}
