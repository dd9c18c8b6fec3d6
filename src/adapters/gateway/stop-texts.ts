import type { StopEvidence } from '../../core/loop-outcome.js';
import { type ModelTextPart, modelText, toolNamePart } from '../../gate/model-text.js';
import { loopNote } from '../../guard/loop-note.js';
import { defaultStopText } from '../../run/default-stop-text.js';
import type { StopInfo } from '../../run/stop-info.js';
import type { GatewayPolicy } from './gateway-policy.js';
import type { TurnVerdict } from './judge-answer.js';
import type { TurnHistory } from './wire.js';

type Stop = Extract<TurnVerdict, { kind: 'stop' }>;

const TOOLS_OFF =
  ' No more tool calls can run for this request: answer the user now with what you have, and say plainly what you could not finish.';

/** The note of the last request of a stopped turn (tools off): why, and to answer with what there is. */
export function stopNote(stop: Stop): string {
  const { evidence } = stop;
  if (evidence.kind === 'loop') return `${loopNote(evidence)}${TOOLS_OFF}`;
  return modelText([...whyParts(evidence), TOOLS_OFF]);
}

function whyParts(evidence: StopEvidence): ModelTextPart[] {
  switch (evidence.kind) {
    case 'limit':
      return evidence.scope === 'per-tool' || evidence.scope === 'session-per-tool'
        ? [
            `NOTE from the runtime: the limit of ${evidence.limit} calls to `,
            toolNamePart(evidence.tool),
            ' in one request is reached.',
          ]
        : [`NOTE from the runtime: the limit of ${evidence.limit} tool calls in one request is reached.`];
    case 'ceiling':
      return [`NOTE from the runtime: this request has used its ${evidence.max} model calls.`];
    default:
      return ['NOTE from the runtime: this request cannot go on.'];
  }
}

/**
 * The final message the gateway writes itself (the provider asked for tools again with tools off, or the
 * config says `synthesize`): the loop's own stop text, saying why and which tools of a possible effect ran
 * in this turn, so nobody repeats them blindly.
 */
export function stoppedText(stop: Stop, turn: TurnHistory, policy: GatewayPolicy): string {
  const times = new Map<string, number>();
  for (const round of turn.rounds)
    for (const call of round.calls)
      if (call.result !== undefined && policy.effectOf(call.name) !== 'read')
        times.set(call.name, (times.get(call.name) ?? 0) + 1);
  const info: StopInfo = {
    reason: stop.reason,
    evidence: stop.evidence,
    messages: [],
    writes: [...times].map(([tool, count]) => ({
      tool,
      times: count,
      effect: policy.effectOf(tool) as Exclude<ReturnType<GatewayPolicy['effectOf']>, 'read'>,
    })),
    outcomeUnknown: [],
  };
  return defaultStopText(info);
}

/** Characters of the stop header's value, at most. */
const MAX_HEADER_CHARS = 300;

/**
 * The stop header's value (`x-toolwarden-stop`): the reason's code, then what met it, then how the turn
 * ended (`answer=model`: the provider's own answer with tools off; `answer=gateway`: the gateway's message).
 * Printable ASCII only (a tool name is the model's text), cut to a bound.
 */
export function stopHeader(stop: Stop, answer: 'model' | 'gateway' | undefined): string {
  const { evidence } = stop;
  const parts: string[] = [stop.reason];
  switch (evidence.kind) {
    case 'loop':
      parts.push(`detector=${evidence.detector}`, `tools=${evidence.toolNames.join(',')}`);
      break;
    case 'limit':
      parts.push(`scope=${evidence.scope}`, `tool=${evidence.tool}`, `limit=${evidence.limit}`);
      break;
    case 'ceiling':
      parts.push(`limit=${evidence.limit}`, `max=${evidence.max}`);
      break;
    default:
      break;
  }
  if (answer !== undefined) parts.push(`answer=${answer}`);
  return parts
    .join('; ')
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, MAX_HEADER_CHARS);
}
