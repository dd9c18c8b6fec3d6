import {
  BASE_ANTHROPIC_REQUEST,
  BASE_REQUEST,
  BASE_RESPONSES_REQUEST,
  type GatewayCase,
  gatewayCase,
  wireStreamText,
} from './hostile-gateway.js';
import { materializeDocument } from './hostile-state.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import { type GatewayWireName, gatewayRequest, gatewayStream, isGatewayDocumented } from './targets.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const BASE_TEXT: Record<GatewayWireName, string> = {
  chat: JSON.stringify(BASE_REQUEST),
  anthropic: JSON.stringify(BASE_ANTHROPIC_REQUEST),
  responses: JSON.stringify(BASE_RESPONSES_REQUEST),
};

function wire(signature: string, detail?: string): Finding {
  return { oracle: 'gateway-wire', signature, ...(detail === undefined ? {} : { detail }) };
}

function attempt<T>(call: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether a tool result of the request (on its wire) still holds the secret (the provider must then not read it). */
function secretInResults(body: unknown, wire: GatewayWireName): boolean {
  return resultsOf(body, wire).some((result) => JSON.stringify(result ?? null).includes(SECRET));
}

/** The tool results of a request: `tool` messages' content, `tool_result` blocks, `function_call_output` items. */
function resultsOf(body: unknown, wire: GatewayWireName): unknown[] {
  const list = listOf(body, wire);
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null;
  switch (wire) {
    case 'chat':
      return list
        .filter((message) => isRecord(message) && message.role === 'tool')
        .map((message) => (message as { content?: unknown }).content);
    case 'anthropic':
      return list.flatMap((message) =>
        isRecord(message) && message.role === 'user' && Array.isArray(message.content)
          ? message.content
              .filter((block) => isRecord(block) && block.type === 'tool_result')
              .map((block) => (block as { content?: unknown }).content)
          : [],
      );
    case 'responses':
      return list
        .filter((item) => isRecord(item) && item.type === 'function_call_output')
        .map((item) => (item as { output?: unknown }).output);
    default: {
      const never: never = wire;
      return never;
    }
  }
}

/** The request's conversation: `messages`, or the Responses API's `input` (a string is one message). */
function listOf(body: unknown, wire: GatewayWireName): unknown[] {
  const value = (body as Record<string, unknown> | null)?.[wire === 'responses' ? 'input' : 'messages'];
  if (typeof value === 'string' && wire === 'responses') return [value];
  return Array.isArray(value) ? value : [];
}

/**
 * A mutated request (as the JSON text an app sends, perhaps cut short): the gateway reads it or passes it
 * through, never throws but for a bad session header, sends the provider JSON with every message kept (one
 * more, the note, with tools off), and with redaction on never sends a secret a tool result held.
 */
function judgeRequest(spec: Extract<GatewayCase, { kind: 'request' }>): Finding[] {
  const { text } = materializeDocument(BASE_TEXT[spec.wire], spec.mutations);
  if (text === undefined) return [];
  const cut = spec.cut === undefined ? text : text.slice(0, spec.cut);
  const body = parsed(cut);
  // Not JSON: the gateway answers 400 before any of this.
  if (body === undefined && cut.trim() !== 'null') return [];
  const outcome = attempt(() => gatewayRequest(body, spec.header, spec.redact, spec.wire));
  if (!outcome.ok) {
    if (isGatewayDocumented(outcome.error)) return [];
    return [
      {
        oracle: 'undocumented-rejection',
        signature: `gateway request (${spec.wire}): ${signatureOf(outcome.error)}`,
        detail: describeThrown(outcome.error),
      },
    ];
  }
  const view = outcome.value;
  if (view === undefined) return [];
  const findings: Finding[] = [];
  const count = listOf(body, spec.wire).length;
  const sent = view.body === undefined ? body : parsed(view.body);
  if (view.body !== undefined && sent === undefined)
    findings.push(wire(`${spec.wire}: the body sent upstream is not JSON`));
  if (listOf(sent, spec.wire).length !== count)
    findings.push(wire(`${spec.wire}: the body sent upstream lost or gained messages`));
  const off = parsed(view.toolsOffBody);
  const offCount = listOf(off, spec.wire).length;
  // Anthropic's note may join the last user message (no system message in its list); elsewhere it is one more.
  const noteFits =
    spec.wire === 'anthropic' ? offCount === count || offCount === count + 1 : offCount === count + 1;
  if (off === undefined || !noteFits)
    findings.push(wire(`${spec.wire}: the tools-off body is not the conversation and one note`));
  if (spec.redact && secretInResults(body, spec.wire)) {
    if (secretInResults(sent, spec.wire))
      findings.push(wire(`${spec.wire}: a secret of a tool result reached the provider`));
    if (secretInResults(off, spec.wire))
      findings.push(wire(`${spec.wire}: a secret of a tool result reached the provider (tools off)`));
  }
  return findings;
}

/** The tool calls an event the app got carries, on `wire`. */
function carriesCalls(text: string, wireName: GatewayWireName): boolean {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const value = parsed(line.slice(6)) as Record<string, unknown> | undefined;
    if (value === undefined || value === null || typeof value !== 'object') continue;
    switch (wireName) {
      case 'chat': {
        if (!Array.isArray(value.choices)) continue;
        for (const choice of value.choices) {
          const delta = (choice as { delta?: { tool_calls?: unknown } } | null)?.delta;
          if (delta?.tool_calls !== undefined) return true;
        }
        break;
      }
      case 'anthropic': {
        const block = value.content_block as { type?: unknown } | undefined;
        const delta = value.delta as { type?: unknown } | undefined;
        if (block?.type === 'tool_use' || delta?.type === 'input_json_delta') return true;
        break;
      }
      case 'responses': {
        const item = value.item as { type?: unknown } | undefined;
        const output = (value.response as { output?: unknown } | undefined)?.output;
        if (
          item?.type === 'function_call' ||
          String(value.type).startsWith('response.function_call_arguments')
        )
          return true;
        if (
          Array.isArray(output) &&
          output.some((entry) => (entry as { type?: unknown } | null)?.type === 'function_call')
        )
          return true;
        break;
      }
      default: {
        const never: never = wireName;
        return never;
      }
    }
  }
  return false;
}

/** The event that ends the app's stream on `wire`, as it shows in an event's text. */
function endsStream(event: string, wireName: GatewayWireName): boolean {
  switch (wireName) {
    case 'chat':
      return event.trim() === 'data: [DONE]';
    case 'anthropic':
      return /^event: message_stop$/m.test(event);
    case 'responses':
      return /^event: response\.(completed|incomplete|failed)$/m.test(event);
    default: {
      const never: never = wireName;
      return never;
    }
  }
}

/**
 * A provider's stream, split and perhaps cut: no call reaches the app before the answer is judged, none
 * at all when it is stopped, and the app's stream always ends with one `[DONE]`, last.
 */
function judgeStream(spec: Extract<GatewayCase, { kind: 'stream' }>): Finding[] {
  const full = wireStreamText(spec.parts, spec.wire);
  const text = spec.cutAt === undefined ? full : full.slice(0, spec.cutAt);
  const points = [...new Set(spec.splits.map((split) => split % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let at = 0;
  for (const point of [...points, text.length]) {
    chunks.push(text.slice(at, point));
    at = point;
  }
  const outcome = attempt(() => gatewayStream(chunks, spec.verdict, spec.redactArguments, spec.wire));
  if (!outcome.ok) {
    if (isGatewayDocumented(outcome.error)) return [];
    return [
      {
        oracle: 'undocumented-rejection',
        signature: `gateway stream (${spec.wire}): ${signatureOf(outcome.error)}`,
        detail: describeThrown(outcome.error),
      },
    ];
  }
  const { pieces } = outcome.value;
  const findings: Finding[] = [];
  if (pieces.some((piece) => piece.phase === 'before' && carriesCalls(piece.text, spec.wire)))
    findings.push(wire(`${spec.wire}: a call reached the app before the answer was judged`));
  if (spec.verdict === 'stop' && pieces.some((piece) => carriesCalls(piece.text, spec.wire)))
    findings.push(wire(`${spec.wire}: a call of a stopped answer reached the app`));
  const events = pieces
    .map((piece) => piece.text)
    .join('')
    .split(/\n\n/)
    .filter((event) => event.trim() !== '');
  const done = events.filter((event) => endsStream(event, spec.wire)).length;
  const last = events.at(-1);
  if (done !== 1 || last === undefined || !endsStream(last, spec.wire))
    findings.push(
      wire(
        `${spec.wire}: the app's stream does not end with one end event (${done > 1 ? 'several' : done === 0 ? 'none' : 'not last'})`,
      ),
    );
  return findings;
}

/**
 * Target 5: what the gateway reads from the wire, hostile: request bodies (mutated, cut) and provider
 * streams (chunks of any kind in any order, split anywhere, cut off).
 */
export function gatewayTarget(): FuzzTarget<GatewayCase> {
  return {
    name: 'gateway',
    arbitrary: gatewayCase(),
    start(spec) {
      const promise = Promise.resolve().then(() =>
        spec.kind === 'request' ? judgeRequest(spec) : judgeStream(spec),
      );
      return {
        promise,
        judge: (settled: Exclude<Settled, { status: 'hung' }>) =>
          settled.status === 'resolved'
            ? (settled.value as Finding[])
            : [
                {
                  oracle: 'undocumented-rejection',
                  signature: `harness: ${signatureOf(settled.error)}`,
                  detail: describeThrown(settled.error),
                },
              ],
        cancel: () => {},
      };
    },
  };
}
