import type { StopEvidence, StopReason } from '../../core/loop-outcome.js';
import type { GatewayPolicy } from './gateway-policy.js';
import type { TurnReplay } from './replay-turn.js';
import type { TurnHistory, WireCall } from './wire.js';

/** What becomes of the provider's answer: it goes to the app as it is, or the turn stops here. */
export type TurnVerdict =
  | { readonly kind: 'pass' }
  | {
      readonly kind: 'stop';
      readonly reason: Extract<StopReason, 'LOOP_DETECTED' | 'TOOL_CALL_LIMIT' | 'MAX_ROUND_TRIPS'>;
      readonly evidence: StopEvidence;
    };

const PASS: TurnVerdict = Object.freeze({ kind: 'pass' });

/**
 * Judges an answer before the app sees it, so a call the turn may not make never runs. An answer without
 * calls always passes. One that asks for calls stops the turn when the guard stopped on the rounds so far,
 * when its calls would take a tool (or all tools) past the turn's limit, or when it is the turn's last
 * model call (`roundTrips`). The counts are the history's (every call of the turn's rounds, answered or
 * not, and the answer's), as Spring AI 2.0.1 counts: per turn, from the last user message.
 */
export function judgeAnswer(
  turn: TurnHistory,
  replay: TurnReplay,
  calls: readonly WireCall[],
  policy: GatewayPolicy,
): TurnVerdict {
  if (calls.length === 0) return PASS;
  if (replay.stop !== undefined)
    return { kind: 'stop', reason: 'LOOP_DETECTED', evidence: { kind: 'loop', ...replay.stop.evidence } };
  const { limits } = policy;
  const perTool = new Map<string, number>();
  let total = 0;
  const count = (name: string) => {
    perTool.set(name, (perTool.get(name) ?? 0) + 1);
    total++;
  };
  for (const round of turn.rounds) for (const call of round.calls) count(call.name);
  for (const call of calls) count(call.name);
  for (const call of calls) {
    const limit =
      (Object.hasOwn(limits.tools, call.name) ? limits.tools[call.name] : undefined) ?? limits.perTool;
    if ((perTool.get(call.name) ?? 0) > limit)
      return stopAt({ kind: 'limit', scope: 'per-tool', tool: call.name, limit });
  }
  if (total > limits.total)
    return stopAt({ kind: 'limit', scope: 'total', tool: (calls[0] as WireCall).name, limit: limits.total });
  const used = turn.rounds.length + 1;
  if (used >= limits.roundTrips)
    return {
      kind: 'stop',
      reason: 'MAX_ROUND_TRIPS',
      evidence: { kind: 'ceiling', limit: 'round-trips', max: limits.roundTrips, used },
    };
  return PASS;
}

function stopAt(evidence: Extract<StopEvidence, { kind: 'limit' }>): TurnVerdict {
  return { kind: 'stop', reason: 'TOOL_CALL_LIMIT', evidence };
}
