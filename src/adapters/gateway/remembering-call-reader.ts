import type { CallReading, GuardCall } from '../../guard/guard-round.js';
import { TextMemo } from './text-memo.js';

/**
 * What a reading holds besides its call's texts (its digests, a few small objects: some 400 bytes), counted
 * as characters against the bound, so that many calls with short texts stay bounded too.
 */
export const READING_CHARS = 400;

/**
 * `read` (the guard's `readCall` under the gateway's configuration) that remembers the calls it read. Every
 * request of a turn brings each earlier call and its result again, and reading them (the arguments'
 * digests, the result's JSON) is most of the guard's replay of the turn; a reading depends only on the
 * call, the tool's effect and the hints, fixed for a gateway. `maxChars` of calls (their arguments and
 * results, and `READING_CHARS` each) kept in all, the oldest forgotten first.
 */
export function rememberingCallReader(
  read: (call: GuardCall) => CallReading,
  maxChars: number,
): (call: GuardCall) => CallReading {
  const kept = new TextMemo<CallReading>(maxChars, READING_CHARS);
  return (call) => {
    // The lengths keep the key unambiguous, whatever the texts hold.
    const { tool, arguments: args } = call;
    const key = `${call.errorClass ?? ''}\u0000${tool.length}\u0000${tool}${args.length}\u0000${args}${call.content}`;
    const known = kept.get(key);
    if (known !== undefined) return known;
    const reading = read(call);
    kept.set(key, reading);
    return reading;
  };
}
