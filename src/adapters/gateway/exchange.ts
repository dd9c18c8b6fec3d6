import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LoopUsage } from '../../core/loop-outcome.js';
import type { TokenUsage } from '../../core/model.js';
import type { GatewayChatCall, GatewayChatEnd } from '../../telemetry/gateway-telemetry.js';
import { type ChainKey, type ChainSession, saveChainRecord } from './chain-memory.js';
import { upstreamHeaders } from './forward-headers.js';
import type { TurnIds } from './gateway-audit.js';
import { type GatewayContext, routeOf } from './gateway-context.js';
import { judgeAnswer, type TurnVerdict } from './judge-answer.js';
import { replayTurn, type TurnReplay } from './replay-turn.js';
import type { SessionIdentity } from './session-identity.js';
import {
  type LoadedSession,
  type SessionRecord,
  saveSession,
  turnSoFar,
  turnStart,
} from './session-record.js';
import { stopNote } from './stop-texts.js';
import type { UpstreamCall } from './upstream.js';
import type { GatewayWire, WireAnswer, WireRequest } from './wire.js';

export type Stop = Extract<TurnVerdict, { kind: 'stop' }>;

/**
 * One guarded request, read: what the rest of the exchange needs. The session's record loads while the
 * provider answers (`loading`): the verdict needs it, the request does not.
 */
export interface Exchange {
  readonly context: GatewayContext;
  readonly wire: GatewayWire;
  readonly request: WireRequest;
  readonly identity: SessionIdentity;
  readonly ids: TurnIds;
  /** The guard replayed over the history alone: its notes go beside the results the provider reads. */
  readonly historyReplay: TurnReplay;
  readonly loading: Promise<LoadedSession>;
  readonly signal: AbortSignal;
  /** The headers of the app's request, for the gateway's own calls. */
  readonly headers: IncomingMessage['headers'];
  readonly path: string;
}

/** What a turn's answer came to, for the record, the audit and telemetry. */
export interface Settlement {
  readonly answer: WireAnswer;
  readonly verdict: TurnVerdict;
  readonly replay: TurnReplay;
  /** Model calls this request made: 1, or 2 with the last answer of a stopped turn. */
  readonly calls: 1 | 2;
  /** Tokens of the last answer, when there was one. */
  readonly finalUsage?: TokenUsage | undefined;
  /** The text the gateway wrote, when it ended the turn itself. */
  readonly stopText?: string | undefined;
  /** The id of the last answer of a stopped turn (a chained wire remembers the conversation under it). */
  readonly finalId?: string | undefined;
  /** Calls of that last answer the app never saw (the provider asked for tools again with tools off). */
  readonly finalOwed?: readonly string[] | undefined;
}

/**
 * The verdict on an answer: the guard replayed from the session's memory at the turn's start (the
 * history's own replay when the session has none), then the limits.
 */
export async function judge(
  exchange: Exchange,
  answer: WireAnswer,
): Promise<{ readonly verdict: TurnVerdict; readonly replay: TurnReplay }> {
  const { context, request } = exchange;
  const loaded = await exchange.loading;
  const { record } = loaded;
  const { turn } = request;
  // Rounds known by their calls only were read into the session's memory of the turn: go on from it.
  const resumed = turn.resumesGuard === true && record?.turn === turn.anchor;
  const start = resumed ? record.end : turnStart(record, turn.anchor);
  // A session with no memory yet (none stored, or an empty one) replays as the history alone did.
  const blank = start.window.length === 0 && start.nudged.length === 0 && start.nextRound === 1;
  const replay = blank
    ? exchange.historyReplay
    : replayTurn(start, turn, context.policy, context.guardConfig, context.readCall, resumed);
  return { verdict: judgeAnswer(request.turn, replay, answer.calls, context.policy), replay };
}

/**
 * What an answer leaves behind: the audit records of the rounds the app ran since the gateway last wrote
 * (and of the calls it withheld, and of the turn's end), the spans of those rounds, and the session's
 * record (one write). The exchanges finish the app's response only once it is saved, so the app's next
 * request, on any instance, reads it. Never rejects: a store that fails is logged.
 */
export function settle(exchange: Exchange, settlement: Settlement): Promise<void> {
  const { context, request, ids } = exchange;
  const work = exchange.loading.then(async (loaded) => {
    const { answer, verdict, replay } = settlement;
    const { turn } = request;
    const so = turnSoFar(loaded.record, turn.anchor);
    const fresh = turn.rounds.slice(Math.min(so.audited, turn.rounds.length));
    const now = context.now();
    const stop = verdict.kind === 'stop' ? verdict : undefined;
    const ended = answer.calls.length === 0 || stop !== undefined;
    const usage = addUsage(addUsage(so.usage, answer.usage), settlement.finalUsage);
    if (fresh.length > 0 && so.askedAt !== undefined) {
      const calls = fresh.flatMap((round) => round.calls.filter((call) => call.result !== undefined));
      context.telemetry?.toolRound({ sessionId: ids.sessionId, calls, startMs: so.askedAt, endMs: now });
    }
    context.audit?.ran(ids, fresh, so.askedAt === undefined ? 0 : Math.max(0, now - so.askedAt));
    if (stop !== undefined)
      context.audit?.withheld(ids, answer.calls, stop, settlement.stopText ?? stopNote(stop));
    if (ended && !so.closed) {
      const roundTrips = turn.rounds.length + settlement.calls;
      const toolCalls = turn.rounds.reduce((sum, round) => sum + round.calls.length, 0);
      context.audit?.turnEnd(ids, {
        stop,
        roundTrips,
        maxRoundTrips: context.policy.limits.roundTrips,
        toolCalls,
        usage,
      });
      context.telemetry?.turnEnd({
        sessionId: ids.sessionId,
        outcome: stop === undefined ? 'completed' : 'stopped',
        ...(stop === undefined ? {} : { reason: stop.reason }),
        roundTrips,
        toolCalls,
      });
    }
    const start = turnStart(loaded.record, turn.anchor);
    const record: SessionRecord = {
      schemaVersion: 1,
      turn: turn.anchor,
      start,
      end: replay.state,
      audited: Math.max(so.audited, turn.rounds.length),
      closed: so.closed || ended,
      usage,
      ...(ended ? {} : { askedAt: now }),
    };
    // The session's entry (one compare-and-set on the version read; none over a record that could not be
    // read) and, on a chained wire, the answer's chain record, which carries the same record and the
    // version that write makes: both sent at once, one round trip on Redis (node-redis writes the commands
    // of one turn of the event loop together). A session named by the app's header is read beside the
    // chain's record, so the chain's record carries no copy of it.
    const saves = loaded.version >= 0;
    const copy: ChainSession | undefined =
      saves && exchange.identity.source !== 'header'
        ? { id: ids.sessionId, version: loaded.version + 1, record }
        : undefined;
    const [, saved] = await Promise.all([
      saveChain(exchange, settlement, copy),
      !saves || saveSession(context.store, ids.sessionId, loaded, record),
    ]);
    if (!saved)
      context.log("store: another request of the session saved first; this one's record is dropped");
  });
  const done = work.catch((error: unknown) =>
    context.log(`store: the session's record could not be saved (${errorName(error)})`),
  );
  context.track(done);
  return done;
}

/**
 * Keeps the conversation under the id of the answer the app gets, on a chained wire whose provider keeps
 * it: the app's next request names that id; or, when the provider keeps the conversation itself, under
 * the conversation's id. Never rejects.
 */
async function saveChain(
  exchange: Exchange,
  settlement: Settlement,
  session: ChainSession | undefined,
): Promise<void> {
  const { context, request } = exchange;
  const { answer, verdict } = settlement;
  const chain = request.chain;
  const stop = verdict.kind === 'stop' ? verdict : undefined;
  const answerId = stop === undefined ? answer.id : (settlement.finalId ?? answer.id);
  if (chain === undefined || !chain.remember) return;
  const key: ChainKey | undefined =
    chain.conversation !== undefined
      ? { conversation: chain.conversation }
      : answerId === undefined
        ? undefined
        : { answer: answerId };
  if (key === undefined) return;
  // A stop the gateway wrote keeps an answer's id whose withheld calls the provider still holds: owed.
  const owed =
    settlement.finalOwed ??
    (stop !== undefined && settlement.finalId === undefined ? answer.calls.map((call) => call.id) : []);
  const memory = chain.memory(stop === undefined ? answer.calls : [], owed);
  const kept = await saveChainRecord(context.store, key, memory, session);
  if (!kept) context.log('chain: the answer could not be remembered (too large, or the store failed)');
}

/** A guarded call to the provider: the app's headers (its key, unless the gateway holds one), `body`. */
export function callProvider(exchange: Exchange, body: string | Buffer): Promise<UpstreamCall> {
  const { context } = exchange;
  const { upstream, key } = routeOf(context, exchange.wire.provider);
  return upstream.call({
    method: 'POST',
    path: exchange.path,
    headers: upstreamHeaders(exchange.headers, {
      owned: context.owned,
      key,
      host: upstream.host,
      bodyLength: Buffer.byteLength(body),
      guarded: true,
    }),
    body,
    signal: exchange.signal,
    timeoutMs: context.timeoutMs,
  });
}

/** Starts a provider call's span; the function returned ends it (once). */
export function startChat(
  exchange: Exchange,
  purpose: GatewayChatCall['purpose'],
): (end: GatewayChatEnd) => void {
  const { telemetry } = exchange.context;
  const { upstream } = routeOf(exchange.context, exchange.wire.provider);
  if (telemetry === undefined) return () => {};
  const end = telemetry.chatCall({
    provider: exchange.wire.provider,
    model: exchange.request.model,
    sessionId: exchange.identity.id,
    serverAddress: upstream.host,
    stream: exchange.request.stream,
    purpose,
  });
  let ended = false;
  return (result) => {
    if (ended) return;
    ended = true;
    end(result);
  };
}

export function chatEnd(status: number, answer: WireAnswer): GatewayChatEnd {
  return { status, finishReasons: answer.finishReasons, ...usageField(answer.usage) };
}

function usageField(usage: TokenUsage | undefined): { usage?: TokenUsage } {
  return usage === undefined ? {} : { usage };
}

function addUsage(total: LoopUsage, usage: TokenUsage | undefined): LoopUsage {
  if (usage === undefined) return total;
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    totalTokens: total.totalTokens + usage.inputTokens + usage.outputTokens,
  };
}

/** The turn's ids: a run id every instance derives alike from the session and the turn. */
export function turnIds(sessionId: string, anchor: string): TurnIds {
  const digest = createHash('sha256').update(`${sessionId}\u0000${anchor}`).digest('hex').slice(0, 24);
  return { runId: `gw_${digest}`, sessionId, turnId: anchor };
}

export function failureName(error: unknown): string {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : 'connection';
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
