import type { IncomingMessage, ServerResponse } from 'node:http';
import { EMPTY_GUARD_STATE } from '../../core/guard-state.js';
import { type ChainKey, type ChainRecord, loadChainRecord } from './chain-memory.js';
import { callProvider, type Exchange, failureName, startChat, turnIds } from './exchange.js';
import { type GatewayContext, routeOf } from './gateway-context.js';
import { parseJson, readBody, sendBody } from './http-io.js';
import { passThrough, sendUpstreamError } from './pass-through.js';
import { plainAnswer } from './plain-exchange.js';
import { replayTurn } from './replay-turn.js';
import { SessionHeaderError, type SessionIdentity, sessionIdentity } from './session-identity.js';
import { type LoadedSession, loadSession } from './session-record.js';
import { streamAnswer } from './stream-exchange.js';
import type { UpstreamCall } from './upstream.js';
import type { GatewayWire, WireError } from './wire.js';

/**
 * Serves a request on a guarded path: reads it (413 over the size limit, 400 when it is not JSON; a body the
 * wire cannot read passes through unchanged), sends it with the results' secrets removed and the guard's
 * notes beside them, and judges the answer before the app sees it (plain, or as it streams).
 */
export async function guardedExchange(
  context: GatewayContext,
  wire: GatewayWire,
  incoming: IncomingMessage,
  response: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const fail = (error: WireError) => sendBody(response, error.status, JSON.stringify(wire.errorBody(error)));
  const read = await readBody(incoming, context.maxRequestBytes);
  switch (read.kind) {
    case 'too-large':
      // The rest of the body is not read: the connection closes after the answer.
      response.setHeader('connection', 'close');
      fail({ status: 413, code: 'body_too_large', message: `the request body is over ${read.max} bytes` });
      return;
    case 'failed':
      response.destroy();
      return;
    case 'ok':
      break;
    default: {
      const never: never = read;
      return never;
    }
  }
  const json = parseJson(read.body);
  if (json === undefined) {
    fail({ status: 400, code: 'invalid_json', message: 'the request body is not JSON' });
    return;
  }
  let request = wire.readRequest(json.value, {
    redactResults: context.policy.redact.toolResults,
    redactText: context.redactText,
  });
  const chain = request?.chain;
  const header = incoming.headers[context.sessionHeader];
  let chained: ChainRecord | undefined;
  let named: { readonly id: string; readonly loading: Promise<LoadedSession> } | undefined;
  const from: ChainKey | undefined =
    chain?.previous !== undefined
      ? { answer: chain.previous }
      : chain?.conversation !== undefined
        ? { conversation: chain.conversation }
        : undefined;
  if (chain !== undefined && from !== undefined) {
    // A chained request (`previous_response_id`, or a conversation the provider keeps) carries only what
    // is new: the rest is the gateway's memory. A session the header names is read at the same time (the
    // chain's record holds no copy of it).
    const id = headerSessionId(header);
    if (id !== undefined) named = { id, loading: loadSessionOrNone(context, id) };
    chained = await loadChainRecord(context.store, from);
    request = chain.withMemory(chained?.memory);
    // A conversation's first request has no memory and needs none; one that continues a turn does.
    if (chained === undefined && ('answer' in from || request.turn.anchor.startsWith('no-memory:')))
      context.log('chain: no memory of the previous answer; the request is judged from what it shows');
  }
  if (request === undefined) {
    await passThrough(context, incoming, response, signal, {
      body: read.body,
      errorBody: wire.errorBody,
      route: routeOf(context, wire.provider),
    });
    return;
  }
  let identity: SessionIdentity;
  try {
    identity = sessionIdentity(header, request.identity);
  } catch (error) {
    if (!(error instanceof SessionHeaderError)) throw error;
    fail({
      status: 400,
      code: 'invalid_session_header',
      message: `${context.sessionHeader} ${error.message}`,
    });
    return;
  }
  // A chain's record holds the session's as its last answer left it: no second read.
  const carried = chained?.session?.id === identity.id ? chained.session.loaded : undefined;
  const loading =
    carried !== undefined
      ? Promise.resolve(carried)
      : named?.id === identity.id
        ? named.loading
        : loadSessionOrNone(context, identity.id);
  const exchange: Exchange = {
    context,
    wire,
    request,
    identity,
    ids: turnIds(identity.id, request.turn.anchor),
    historyReplay: replayTurn(
      EMPTY_GUARD_STATE,
      request.turn,
      context.policy,
      context.guardConfig,
      context.readCall,
    ),
    loading,
    signal,
    headers: incoming.headers,
    path: incoming.url ?? '/',
  };
  const body = request.body(exchange.historyReplay.notes) ?? read.body;
  const span = startChat(exchange, 'answer');
  let call: UpstreamCall;
  try {
    call = await callProvider(exchange, body);
  } catch (error) {
    span({ error: failureName(error) });
    sendUpstreamError(response, error, wire.errorBody);
    return;
  }
  const status = call.response.statusCode ?? 502;
  const streamed = (call.response.headers['content-type'] ?? '').includes('text/event-stream');
  if (status >= 200 && status < 300 && streamed) {
    await streamAnswer(exchange, call, response, span);
    return;
  }
  await plainAnswer(exchange, call, response, span);
}

/** The session's record; when the store fails, none, at version -1: nothing is saved over a record not read. */
function loadSessionOrNone(context: GatewayContext, id: string): Promise<LoadedSession> {
  return loadSession(context.store, id).catch((error: unknown) => {
    context.log(
      `store: the session's record could not be read (${errorName(error)}); judged from the history alone`,
    );
    return { record: undefined, version: -1 };
  });
}

/** The session the header names, when it names one (a header that is not one is refused later). */
function headerSessionId(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return sessionIdentity(header, { opening: '' }).id;
  } catch {
    return undefined;
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
