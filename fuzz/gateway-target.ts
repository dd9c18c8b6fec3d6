import { BASE_REQUEST, type GatewayCase, gatewayCase, streamText } from './hostile-gateway.js';
import { materializeDocument } from './hostile-state.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import { gatewayRequest, gatewayStream, isGatewayDocumented } from './targets.js';

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const BASE_TEXT = JSON.stringify(BASE_REQUEST);

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

/** Whether a tool message of the request still holds the secret (the provider must then not read it). */
function secretInResults(body: unknown): boolean {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return false;
  return messages.some(
    (message) =>
      typeof message === 'object' &&
      message !== null &&
      (message as { role?: unknown }).role === 'tool' &&
      JSON.stringify((message as { content?: unknown }).content ?? null).includes(SECRET),
  );
}

/**
 * A mutated request (as the JSON text an app sends, perhaps cut short): the gateway reads it or passes it
 * through, never throws but for a bad session header, sends the provider JSON with every message kept (one
 * more, the note, with tools off), and with redaction on never sends a secret a tool result held.
 */
function judgeRequest(spec: Extract<GatewayCase, { kind: 'request' }>): Finding[] {
  const { text } = materializeDocument(BASE_TEXT, spec.mutations);
  if (text === undefined) return [];
  const cut = spec.cut === undefined ? text : text.slice(0, spec.cut);
  const body = parsed(cut);
  // Not JSON: the gateway answers 400 before any of this.
  if (body === undefined && cut.trim() !== 'null') return [];
  const outcome = attempt(() => gatewayRequest(body, spec.header, spec.redact));
  if (!outcome.ok) {
    if (isGatewayDocumented(outcome.error)) return [];
    return [
      {
        oracle: 'undocumented-rejection',
        signature: `gateway request: ${signatureOf(outcome.error)}`,
        detail: describeThrown(outcome.error),
      },
    ];
  }
  const view = outcome.value;
  if (view === undefined) return [];
  const findings: Finding[] = [];
  const count = ((body as { messages: unknown[] }).messages ?? []).length;
  const sent = view.body === undefined ? body : parsed(view.body);
  if (view.body !== undefined && sent === undefined)
    findings.push(wire('the body sent upstream is not JSON'));
  const sentCount = (sent as { messages?: unknown[] } | undefined)?.messages?.length;
  if (sentCount !== count) findings.push(wire('the body sent upstream lost or gained messages'));
  const off = parsed(view.toolsOffBody) as { messages?: unknown[]; tool_choice?: unknown } | undefined;
  if (off === undefined || off.messages?.length !== count + 1)
    findings.push(wire('the tools-off body is not the conversation and one note'));
  if (spec.redact && secretInResults(body)) {
    if ((view.body ?? cut).includes(SECRET))
      findings.push(wire('a secret of a tool result reached the provider'));
    if (view.toolsOffBody.includes(SECRET))
      findings.push(wire('a secret of a tool result reached the provider (tools off)'));
  }
  return findings;
}

/** The tool calls an event the app got carries. */
function carriesCalls(text: string): boolean {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const value = parsed(line.slice(6)) as { choices?: unknown } | undefined;
    if (!Array.isArray(value?.choices)) continue;
    for (const choice of value.choices) {
      const delta = (choice as { delta?: { tool_calls?: unknown } } | null)?.delta;
      if (delta?.tool_calls !== undefined) return true;
    }
  }
  return false;
}

/**
 * A provider's stream, split and perhaps cut: no call reaches the app before the answer is judged, none
 * at all when it is stopped, and the app's stream always ends with one `[DONE]`, last.
 */
function judgeStream(spec: Extract<GatewayCase, { kind: 'stream' }>): Finding[] {
  const full = streamText(spec.parts);
  const text = spec.cutAt === undefined ? full : full.slice(0, spec.cutAt);
  const points = [...new Set(spec.splits.map((split) => split % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let at = 0;
  for (const point of [...points, text.length]) {
    chunks.push(text.slice(at, point));
    at = point;
  }
  const outcome = attempt(() => gatewayStream(chunks, spec.verdict, spec.redactArguments));
  if (!outcome.ok) {
    if (isGatewayDocumented(outcome.error)) return [];
    return [
      {
        oracle: 'undocumented-rejection',
        signature: `gateway stream: ${signatureOf(outcome.error)}`,
        detail: describeThrown(outcome.error),
      },
    ];
  }
  const { pieces } = outcome.value;
  const findings: Finding[] = [];
  if (pieces.some((piece) => piece.phase === 'before' && carriesCalls(piece.text)))
    findings.push(wire('a call reached the app before the answer was judged'));
  if (spec.verdict === 'stop' && pieces.some((piece) => carriesCalls(piece.text)))
    findings.push(wire('a call of a stopped answer reached the app'));
  const events = pieces
    .map((piece) => piece.text)
    .join('')
    .split(/\n\n/)
    .filter((event) => event.trim() !== '');
  const done = events.filter((event) => event.trim() === 'data: [DONE]').length;
  if (done !== 1 || events.at(-1)?.trim() !== 'data: [DONE]')
    findings.push(
      wire(
        `the app's stream does not end with one [DONE] (${done > 1 ? 'several' : done === 0 ? 'none' : 'not last'})`,
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
