import { describeModelFailure } from '../core/model-failure.js';
import type { RunEvent, RunEventListener } from '../core/run-event.js';
import { printable } from '../util/printable.js';

export interface RunProgressOptions {
  readonly write: (text: string) => void;
  /** A terminal: one line rewritten in place per round; otherwise (piped) plain lines. */
  readonly live: boolean;
}

/**
 * `toolwarden run`'s progress on stderr, from the run's events: each round, its model call and each tool
 * call with its duration and outcome, and the guard's warnings. Tool names are printed escaped (they are
 * the model's text).
 */
export function runProgress({ write, live }: RunProgressOptions): RunEventListener {
  let line = '';
  const show = (text: string) => {
    line = text;
    if (live) write(`\r\u001b[2K${text}`);
  };
  const done = () => {
    if (line === '') return;
    write(live ? '\n' : `${line}\n`);
    line = '';
  };
  return (event: RunEvent) => {
    switch (event.type) {
      case 'step-start':
        done();
        show(`round ${event.round}: asking the model`);
        return;
      case 'model-call-end':
        show(
          `round ${event.round}: model ${ms(event.durationMs)}${event.errorType === undefined ? '' : ` failed (${printable(event.errorType)})`}, ${event.toolCalls === 0 ? 'answer' : `${event.toolCalls} tool call${event.toolCalls === 1 ? '' : 's'}`}`,
        );
        return;
      case 'tool-call-end': {
        const verdict = event.outcome === 'success' ? 'ok' : (event.code ?? event.outcome);
        show(`${line} · ${printable(event.toolName)} ${ms(event.durationMs)} ${verdict}`);
        return;
      }
      case 'model-call-retry':
        done();
        write(
          `  model: ${printable(retryCause(event))}, trying again in ${seconds(event.delayMs)} (attempt ${event.attempt})\n`,
        );
        return;
      case 'guard-warn':
        done();
        write(
          `  guard: ${event.evidence.detector} on ${event.evidence.toolNames.map(printable).join(', ')} (round ${event.round}${event.nudged ? ', the model was told' : ''})\n`,
        );
        return;
      case 'run-end':
        done();
        write(
          `${event.outcome}${event.reason === undefined ? '' : ` (${event.reason})`}: ${event.roundTrips} round trip${event.roundTrips === 1 ? '' : 's'}, ${event.toolCalls} tool call${event.toolCalls === 1 ? '' : 's'}, ${event.usage.totalTokens} tokens\n`,
        );
        if (event.evidence?.kind === 'error' && event.evidence.model !== undefined) {
          const failed = describeModelFailure(event.evidence.model);
          if (failed !== undefined) write(`  ${printable(failed)}\n`);
        }
        return;
      default:
        return;
    }
  };
}

/** What failed, by the retry event's fields: the status and the provider's error name, a network code, the timeout. */
function retryCause(event: Extract<RunEvent, { type: 'model-call-retry' }>): string {
  if (event.status !== undefined) {
    return `${event.status}${event.providerError === undefined ? '' : ` ${event.providerError}`}`;
  }
  if (event.timeoutMs !== undefined) return `no answer within ${seconds(event.timeoutMs)}`;
  return event.networkError ?? event.providerError ?? event.errorType;
}

function seconds(value: number): string {
  return value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`;
}

function ms(value: number): string {
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}
