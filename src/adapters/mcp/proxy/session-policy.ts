import { argumentText } from '../../../chain/normalize-tool-calls.js';
import { DEFAULT_GUARD_WINDOW_ROUNDS } from '../../../core/defaults.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../../../core/guard-state.js';
import { callFingerprint } from '../../../guard/fingerprint.js';
import { guardRound } from '../../../guard/guard-round.js';
import { type GuardConfig, startRequest } from '../../../guard/loop-guard.js';
import { resolveHints } from '../../../guard/loop-hints.js';
import { loopNote } from '../../../guard/loop-note.js';
import { isWriteTool, needsConfirmation, refusedUnrunWhenStopped } from '../mcp-tool-info.js';
import type { CallDecision, ConfirmationAnswer, Forward, Observation, Refusal } from './call-decision.js';
import { confirmMessage } from './confirm-message.js';
import { isToolVisible } from './filter-tools.js';
import { guardCallOf, type UpstreamAnswer } from './guard-answer.js';
import type { ProxiedTool } from './mcp-shapes.js';
import type { ProxyConfig } from './proxy-config-types.js';
import { refusalOf } from './refusal-text.js';

/** One `tools/call` as the policy reads it: the tool's name, its arguments, and their text (encoded once). */
export interface ProxiedCall {
  readonly name: string;
  readonly args: unknown;
  /** The arguments as JSON text, as the chain and the loop guard read them. */
  readonly text: string;
}

/** A `tools/call`'s name and arguments, with the arguments' text encoded the way the chain encodes them. */
export function proxiedCall(name: string, args: unknown): ProxiedCall {
  return { name, args, text: argumentText(args ?? {}) };
}

/**
 * The proxy's decisions for one client session, with no I/O: the bridge asks `decide` before a call goes
 * upstream, `confirmed` with the user's answer when it said `confirm`, and `observe` with what came back.
 * The session's limits are not here: they are the chain's (`limits.perSession`, counted in the store). The
 * loop guard sees each call as one round of the session, which is one request of the guard's.
 */
export interface SessionPolicy {
  decide(call: ProxiedCall): CallDecision;
  confirmed(call: ProxiedCall, answer: ConfirmationAnswer): Forward | Refusal;
  observe(call: ProxiedCall, answer: UpstreamAnswer): Observation;
  /** The upstream's tool list changed (`notifications/tools/list_changed`). */
  setTools(tools: readonly ProxiedTool[]): void;
  guardState(): GuardState;
  /** What the policy remembers (the guard's state and its stops): kept in the store between calls. */
  memory(): PolicyMemory;
  /** Takes up a memory read back from the store (another instance's calls of the session included). */
  restore(memory: PolicyMemory): void;
  /** Whether a call of `name` can be refused before it runs by an earlier stop (so needs the latest memory). */
  refusesUnrun(name: string): boolean;
}

/** The guard's state and the calls it stopped (fingerprint, `nextRound` at the stop). */
export interface PolicyMemory {
  readonly state: GuardState;
  readonly stopped: readonly (readonly [string, number])[];
}

/** `createSessionPolicy`'s options. */
export interface SessionPolicyOptions {
  readonly config: ProxyConfig;
  readonly tools: readonly ProxiedTool[];
}

const FORWARD: Forward = Object.freeze({ kind: 'forward' });

/** The decisions of one client session: visibility, the loop guard's stops, confirmation. */
export function createSessionPolicy({ config, tools }: SessionPolicyOptions): SessionPolicy {
  let byName = new Map(tools.map((tool) => [tool.name, tool]));
  let state = startRequest(EMPTY_GUARD_STATE);
  /**
   * Calls the guard stopped (their fingerprints), and the `nextRound` at the stop, until the guard has
   * forgotten it or a change made a new situation: a write among them is refused before it runs, any
   * other call runs and is refused after it only when it gives the same result again.
   */
  const stopped = new Map<string, number>();
  const stoppedAt = (fingerprint: string): number | undefined => {
    const at = stopped.get(fingerprint);
    return at !== undefined && state.nextRound - at < DEFAULT_GUARD_WINDOW_ROUNDS ? at : undefined;
  };
  const guard = config.loopGuard;
  const guardConfig: GuardConfig | undefined =
    guard === false
      ? undefined
      : { thresholds: guard, hintsOf: (tool) => resolveHints(undefined, guard.hints[tool]) };

  /** The refusal a call gets before anything else is considered, or undefined. */
  const refusalFor = ({ name, text }: ProxiedCall): Refusal | undefined => {
    if (!isToolVisible(name, config)) return refusalOf({ reason: 'denied' });
    if (
      stopped.size > 0 &&
      refusedUnrunWhenStopped(name, byName.get(name), config) &&
      stoppedAt(callFingerprint(name, text)) !== undefined
    )
      return refusalOf({ reason: 'loop', tool: name });
    return undefined;
  };

  return {
    decide(call) {
      const refusal = refusalFor(call);
      if (refusal !== undefined) return refusal;
      if (needsConfirmation(call.name, byName.get(call.name), config))
        return { kind: 'confirm', message: confirmMessage(call.name, call.args) };
      return FORWARD;
    },

    confirmed(call, answer) {
      // Other calls of the session may have run while the user was asked: the guard's stops are checked again.
      const refusal = refusalFor(call);
      if (refusal !== undefined) return refusal;
      switch (answer) {
        case 'accept':
          return FORWARD;
        case 'decline':
        case 'cancel':
          return refusalOf({ reason: 'declined' });
        case 'unavailable':
          return config.confirm !== false && config.confirm.ifNoElicitation === 'allow-and-audit'
            ? FORWARD
            : refusalOf({ reason: 'cannot-confirm' });
        default: {
          const never: never = answer;
          return never;
        }
      }
    },

    observe(call, answer) {
      if (guardConfig === undefined || guard === false) return { kind: 'pass' };
      const { name } = call;
      const fingerprint = callFingerprint(name, call.text);
      const wasStopped = stopped.size > 0 && stoppedAt(fingerprint) !== undefined;
      const outcome = guardRound({
        state,
        config: guardConfig,
        isWrite: (tool) => isWriteTool(tool, byName.get(tool), config),
        calls: [guardCallOf(call, answer)],
        nudge: guard.nudge,
      });
      state = outcome.state;
      // A call that told something new is a new situation: what was stopped before it may run again.
      if (state.window.at(-1)?.calls.some((record) => record.novel === true) === true) stopped.clear();
      for (const [forgotten, at] of stopped)
        if (state.nextRound - at >= DEFAULT_GUARD_WINDOW_ROUNDS) stopped.delete(forgotten);
      if (outcome.stop !== undefined) {
        const evidence = outcome.stop;
        for (const stop of evidence.fingerprints) stopped.set(stop.call, state.nextRound);
        // A stopped call that ran again and is in the stop once more gave the same result again.
        if (wasStopped && evidence.fingerprints.some((stop) => stop.call === fingerprint))
          return { kind: 'repeat', evidence, refusal: refusalOf({ reason: 'loop-repeat', tool: name }) };
        return { kind: 'stop', evidence, note: loopNote(evidence) };
      }
      // Something new came back (a file changed since): the stop no longer holds for this call.
      if (wasStopped) stopped.delete(fingerprint);
      const warning = outcome.warnings[0];
      if (warning === undefined) return { kind: 'pass' };
      const note = outcome.note?.text;
      return note === undefined
        ? { kind: 'warn', evidence: warning.evidence }
        : { kind: 'warn', evidence: warning.evidence, note };
    },

    setTools(next) {
      byName = new Map(next.map((tool) => [tool.name, tool]));
    },
    guardState: () => state,
    memory: () => ({ state, stopped: [...stopped] }),
    restore(memory) {
      state = memory.state;
      stopped.clear();
      for (const [fingerprint, at] of memory.stopped) stopped.set(fingerprint, at);
    },
    refusesUnrun: (name) => refusedUnrunWhenStopped(name, byName.get(name), config),
  };
}
