import { argumentsDigest } from '../chain/arguments-digest.js';
import { DEFAULT_GUARD_WINDOW_ROUNDS } from '../core/defaults.js';
import { EMPTY_GUARD_STATE, type GuardState } from '../core/guard-state.js';
import { callFingerprint } from '../guard/fingerprint.js';
import { guardRound } from '../guard/guard-round.js';
import { type GuardConfig, startRequest } from '../guard/loop-guard.js';
import { resolveHints } from '../guard/loop-hints.js';
import { loopNote } from '../guard/loop-note.js';
import type {
  CallDecision,
  ConfirmationAnswer,
  Forward,
  ForwardContract,
  Observation,
  Refusal,
} from './call-decision.js';
import { confirmMessage } from './confirm-message.js';
import { isToolVisible } from './filter-tools.js';
import { argumentsText, guardRecordOf, type UpstreamAnswer } from './guard-answer.js';
import type { ProxiedTool } from './mcp-shapes.js';
import type { ProxyConfig } from './proxy-config.js';
import { refusalOf } from './refusal-text.js';
import { isWriteTool, needsConfirmation, refusedUnrunWhenStopped } from './tool-traits.js';

/**
 * The proxy's decisions for one client session, with no I/O: the bridge asks `decide` before a call goes
 * upstream, `confirmed` with the user's answer when it said `confirm`, and `observe` with what came back.
 * Calls are counted when they are let through (a refusal costs nothing); the loop guard sees each call as
 * one round of the session, which is one request of the guard's.
 */
export interface SessionPolicy {
  decide(name: string, args: unknown): CallDecision;
  confirmed(name: string, args: unknown, answer: ConfirmationAnswer): Forward | Refusal;
  observe(name: string, args: unknown, answer: UpstreamAnswer): Observation;
  /** The upstream's tool list changed (`notifications/tools/list_changed`). */
  setTools(tools: readonly ProxiedTool[]): void;
  /** Calls let through so far: in total and per tool. */
  counts(): { readonly total: number; readonly perTool: ReadonlyMap<string, number> };
  guardState(): GuardState;
}

export interface SessionPolicyOptions {
  readonly config: ProxyConfig;
  readonly tools: readonly ProxiedTool[];
  /** Scopes the idempotency keys: a repeat counts within one session. */
  readonly sessionId: string;
}

export function createSessionPolicy({ config, tools, sessionId }: SessionPolicyOptions): SessionPolicy {
  let byName = new Map(tools.map((tool) => [tool.name, tool]));
  let state = startRequest(EMPTY_GUARD_STATE);
  let total = 0;
  let observed = 0;
  const perTool = new Map<string, number>();
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
  const refusalFor = (name: string, args: unknown): Refusal | undefined => {
    if (!isToolVisible(name, config)) return refusalOf({ reason: 'denied' });
    if (
      stopped.size > 0 &&
      refusedUnrunWhenStopped(name, byName.get(name), config) &&
      stoppedAt(callFingerprint(name, argumentsText(args))) !== undefined
    )
      return refusalOf({ reason: 'loop', tool: name });
    const limit = config.limits.tools[name] ?? config.limits.perTool;
    if ((perTool.get(name) ?? 0) >= limit) return refusalOf({ reason: 'tool-limit', tool: name, limit });
    if (total >= config.limits.total)
      return refusalOf({ reason: 'session-limit', limit: config.limits.total });
    return undefined;
  };

  /** Lets a call through: counts it, and says what applies to it upstream. */
  const forward = (name: string, args: unknown, unconfirmed: boolean): Forward => {
    total++;
    perTool.set(name, (perTool.get(name) ?? 0) + 1);
    const decision: Forward = {
      kind: 'forward',
      timeoutMs: config.timeouts.tools[name] ?? config.timeouts.defaultMs,
      contract: contractFor(name, byName.get(name), config),
    };
    const idempotent = config.idempotentWrites.tools.includes(name);
    return {
      ...decision,
      ...(idempotent ? { idempotencyKey: `${sessionId}:${argumentsDigest(name, argumentsText(args))}` } : {}),
      ...(unconfirmed ? { unconfirmed: true as const } : {}),
    };
  };

  return {
    decide(name, args) {
      const refusal = refusalFor(name, args);
      if (refusal !== undefined) return refusal;
      if (needsConfirmation(name, byName.get(name), config))
        return { kind: 'confirm', message: confirmMessage(name, args) };
      return forward(name, args, false);
    },

    confirmed(name, args, answer) {
      // Other calls of the session may have run while the user was asked: the limits are checked again.
      const refusal = refusalFor(name, args);
      if (refusal !== undefined) return refusal;
      switch (answer) {
        case 'accept':
          return forward(name, args, false);
        case 'decline':
        case 'cancel':
          return refusalOf({ reason: 'declined' });
        case 'unavailable':
          return config.confirm !== false && config.confirm.ifNoElicitation === 'allow-and-audit'
            ? forward(name, args, true)
            : refusalOf({ reason: 'cannot-confirm' });
        default: {
          const never: never = answer;
          return never;
        }
      }
    },

    observe(name, args, answer) {
      if (guardConfig === undefined || guard === false) return { kind: 'pass' };
      const { call, result } = guardRecordOf(name, args, answer, `call_${++observed}`);
      const fingerprint = callFingerprint(name, call.arguments);
      const wasStopped = stopped.size > 0 && stoppedAt(fingerprint) !== undefined;
      const message = { role: 'tool' as const, toolCallId: call.id, name, content: '', isError: false };
      const outcome = guardRound({
        state,
        config: guardConfig,
        isWrite: (tool) => isWriteTool(tool, byName.get(tool), config),
        calls: [call],
        results: [result],
        toolMessages: [message],
        nudge: guard.nudge,
      });
      state = outcome.state;
      // A successful new call that may change the world (a write, or any new call of unknown effect) is a
      // new situation: what was stopped before it may run again.
      if (state.window.at(-1)?.changed === true) stopped.clear();
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
      const note = outcome.toolMessages[0]?.note;
      return note === undefined
        ? { kind: 'warn', evidence: warning.evidence }
        : { kind: 'warn', evidence: warning.evidence, note };
    },

    setTools(next) {
      byName = new Map(next.map((tool) => [tool.name, tool]));
    },
    counts: () => ({ total, perTool }),
    guardState: () => state,
  };
}

/** The contract of a tool's `structuredContent`: the config's for the tool, else its default mode. */
function contractFor(name: string, tool: ProxiedTool | undefined, config: ProxyConfig): ForwardContract {
  const own = config.outputContracts.tools[name];
  const mode = own ?? { kind: config.outputContracts.default };
  switch (mode.kind) {
    case 'none':
      return { kind: 'none' };
    case 'schema':
      return { kind: 'schema', schema: mode.schema, from: 'config' };
    case 'from-server':
      return tool?.outputSchema === undefined
        ? { kind: 'none' }
        : { kind: 'schema', schema: tool.outputSchema, from: 'server' };
    default: {
      const never: never = mode;
      return never;
    }
  }
}
