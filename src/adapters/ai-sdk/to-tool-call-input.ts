import { type ParseArgumentsLimits, parseArguments } from '../../chain/parse-arguments.js';

/**
 * The input of a replayed tool call, as the AI SDK's prompt wants it: a parsed JSON object. toolwarden's
 * history keeps the model's raw argument text; when toolwarden refused that text (not JSON, not an object,
 * too large, too deep, a key that could reach a prototype) the prompt carries `{}`, as `ai@6` itself does,
 * so the provider always gets a well-formed request. The tool message that follows tells the model what
 * was wrong with what it sent. Judged by the chain's own parser, so the two never disagree on the limits.
 */
export function toToolCallInput(raw: string, limits: ParseArgumentsLimits): Record<string, unknown> {
  const parsed = parseArguments(raw, limits);
  return parsed.ok ? parsed.value : {};
}
