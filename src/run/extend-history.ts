import type { Message } from '../messages/message.js';
import type { RunContext } from './run-context.js';

/**
 * The history with `added` appended. The run's own history array (made by the driver, or extended by an
 * earlier step of this run) is extended in place: the states in between never leave the driver, and a
 * copy per round would make a long run quadratic. Any other array is copied first, and the copy becomes
 * the run's own.
 */
export function extendHistory(
  run: RunContext,
  messages: readonly Message[],
  added: readonly Message[],
): readonly Message[] {
  let history = messages as Message[];
  if (history !== run.history) {
    history = messages.slice();
    run.history = history;
  }
  for (const message of added) history.push(message);
  return history;
}
