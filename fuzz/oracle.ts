import type fc from 'fast-check';

/** What the fuzzers check on every run. Each is counted per target (runs with at least one finding). */
export const ORACLES = [
  /** An `uncaughtException` or `unhandledRejection` during the run: without the runner's listener, the process dies. */
  'crash',
  /** The target rejected with something other than a documented error (see `isDocumentedRejection`). */
  'undocumented-rejection',
  /** The run did not settle within the deadline (or blocked the event loop past it). */
  'hang',
  /** The resulting history (or a documented error's partial history) is not one a provider accepts, or lies. */
  'malformed-history',
  /** `Object.prototype` (or `Array.prototype`, `Function.prototype`) gained a key. */
  'prototype-pollution',
  /** Per-turn call limits not exact; round trips past the maximum; usage totals not finite. */
  'limits',
  /** The guard state saved back is oversized or not JSON, or a completed run did not save it. */
  'saved-state',
  /** A call the provider runs itself (a part says `providerExecuted`, a result names it) came out local, or ran. */
  'provider-call-run',
  /** The same AI SDK answer, given whole and streamed, came to different responses. */
  'paths-disagree',
  /** A saved run state whose only change is the order of its keys was refused, or restored to another value. */
  'reorder-refused',
  /** A resumed run ran a waiting call that had no approval (the policy asks a person for each). */
  'approved-call-missing-decision',
  /**
   * The gateway sent the provider a body that is not JSON, lost a message or a tool result's secret; or
   * gave the app a call before it was judged, a call of a stopped answer, or a stream without one last `[DONE]`.
   */
  'gateway-wire',
] as const;

export type OracleName = (typeof ORACLES)[number];

export interface Finding {
  readonly oracle: OracleName;
  /** Short and stable (no ids, no numbers): failures with the same signature are one kind of failure. */
  readonly signature: string;
  /** The particulars of this occurrence. */
  readonly detail?: string;
}

/** How a target's run ended, as the harness saw it. */
export type Settled =
  | { readonly status: 'resolved'; readonly value: unknown }
  | { readonly status: 'rejected'; readonly error: unknown }
  | { readonly status: 'hung' };

/** One started run: the promise, and how to judge it once it has settled. */
export interface StartedRun {
  readonly promise: Promise<unknown>;
  /** The oracles that read the outcome (the harness adds crashes, hangs and pollution). */
  judge(settled: Exclude<Settled, { status: 'hung' }>): Finding[];
  /** Called when the run hung: abort what can be aborted, so it does not run on into later runs. */
  cancel(): void;
}

export type TargetName = 'chain' | 'loop' | 'ai-sdk' | 'state' | 'gateway';

export interface FuzzTarget<Case> {
  readonly name: TargetName;
  readonly arbitrary: fc.Arbitrary<Case>;
  start(spec: Case): StartedRun;
}

/** A printable one-liner for any thrown value (never throws itself). */
export function describeThrown(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.constructor.name}: ${String(value.message)}`.slice(0, 200);
    if (typeof value === 'object' && value !== null)
      return `a thrown ${Object.prototype.toString.call(value)}`;
    return `a thrown ${typeof value}: ${String(value)}`.slice(0, 200);
  } catch {
    return 'a thrown value that cannot be printed';
  }
}

/** `describeThrown` with the particulars taken out (quoted text, numbers; a non-Error's value), for grouping. */
export function signatureOf(value: unknown): string {
  if (!(value instanceof Error)) {
    const type = typeof value === 'object' && value !== null ? safeTag(value) : typeof value;
    return `a thrown ${type} (not an Error)`;
  }
  return describeThrown(value)
    .replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '…')
    .replace(/\d+/g, 'N')
    .split('\n')[0]
    ?.slice(0, 90) as string;
}

function safeTag(value: object): string {
  try {
    return Object.prototype.toString.call(value);
  } catch {
    return 'object that cannot be inspected';
  }
}
