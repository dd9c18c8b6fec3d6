import { isDeepStrictEqual } from 'node:util';
import { type MaterializedAnswer, markersOf, materializeAnswer, type ProviderFacts } from './ai-sdk-parts.js';
import { type AiSdkCase, aiSdkCase } from './hostile-ai-sdk.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import {
  type AiSdkScript,
  createFuzzRegistry,
  type FuzzRegistry,
  type FuzzToolSpec,
  generateAiSdkAnswer,
  isDocumentedRejection,
  partialCallsOf,
  runAiSdkLoop,
  streamAiSdkAnswer,
} from './targets.js';

/** What one path came to: its answer, or what it threw. */
type PathOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

interface AiSdkRun {
  readonly generated: PathOutcome;
  readonly streamed: PathOutcome;
  readonly looped: PathOutcome | undefined;
}

/** The tools' record of one run: the `n` of each call's `{"n":k}` arguments that reached its tool. */
interface RanData {
  readonly ran: number[];
}

const record = (args: unknown, context: { readonly data: unknown }) => {
  const n = (args as { n?: unknown } | null)?.n;
  if (typeof n === 'number') (context.data as RanData).ran.push(n);
  return 'done';
};
const AI_SDK_TOOLS: readonly FuzzToolSpec[] = [
  { name: 'echo', effect: 'read', execute: record },
  { name: 'peek', effect: 'read', execute: record },
];

const settle = (promise: Promise<unknown>): Promise<PathOutcome> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/** The model answers the case on its first call, and plain text after, by either path. */
function script(answer: MaterializedAnswer): AiSdkScript {
  return {
    content: (call) => (call === 0 ? answer.generate.value : [{ type: 'text', text: 'Done.' }]),
    stream: (call) =>
      call === 0
        ? answer.stream.value
        : [
            { type: 'text-delta', id: 't', delta: 'Done.' },
            { type: 'finish', usage: {}, finishReason: { unified: 'stop', raw: 'stop' } },
          ],
  };
}

function callsOf(response: unknown): readonly unknown[] {
  const calls = (response as { message?: { toolCalls?: unknown } } | null)?.message?.toolCalls;
  return Array.isArray(calls) ? calls : [];
}

/** Local calls that carry the id or the marker of a call the provider runs. */
function providerCallsIn(calls: readonly unknown[], facts: ProviderFacts, where: string): Finding[] {
  for (const call of calls) {
    const { id, arguments: args } = call as { id?: unknown; arguments?: unknown };
    const byId = typeof id === 'string' && facts.ids.has(id);
    const marker = markersOf(args).find((k) => facts.markers.has(k));
    if (byId || marker !== undefined) {
      return [
        {
          oracle: 'provider-call-run',
          signature: `${where}: a call the provider runs is a local call (${byId ? 'its id' : 'its arguments'})`,
          detail: `id ${String(id)}, arguments ${String(args).slice(0, 60)}`,
        },
      ];
    }
  }
  return [];
}

function judgePath(outcome: PathOutcome, facts: ProviderFacts, where: string): Finding[] {
  if (outcome.ok) return providerCallsIn(callsOf(outcome.value), facts, where);
  if (!isDocumentedRejection(outcome.error, undefined)) {
    const { error } = outcome;
    return [
      {
        oracle: 'undocumented-rejection',
        signature: `${where}: ${signatureOf(error)}`,
        detail: describeThrown(error),
      },
    ];
  }
  return providerCallsIn(partialCallsOf(outcome.error) ?? [], facts, `${where} (partial)`);
}

function judge(
  run: AiSdkRun,
  spec: AiSdkCase,
  answer: MaterializedAnswer,
  ran: readonly number[],
): Finding[] {
  const findings = [
    ...judgePath(run.generated, answer.generate.facts, 'generate'),
    ...judgePath(run.streamed, answer.stream.facts, 'stream'),
  ];
  if (spec.kind === 'paired') {
    const same =
      run.generated.ok && run.streamed.ok
        ? isDeepStrictEqual(run.generated.value, run.streamed.value)
        : run.generated.ok === run.streamed.ok;
    if (!same) {
      findings.push({
        oracle: 'paths-disagree',
        signature: 'generate and stream came to different responses',
        detail: `${summary(run.generated)} vs ${summary(run.streamed)}`,
      });
    }
  }
  if (run.looped !== undefined) {
    const facts = spec.loop === 'stream' ? answer.stream.facts : answer.generate.facts;
    if (!run.looped.ok && !isDocumentedRejection(run.looped.error, undefined)) {
      findings.push({
        oracle: 'undocumented-rejection',
        signature: `loop: ${signatureOf(run.looped.error)}`,
        detail: describeThrown(run.looped.error),
      });
    }
    const provider = ran.find((k) => facts.markers.has(k));
    if (provider !== undefined) {
      findings.push({
        oracle: 'provider-call-run',
        signature: `loop (${spec.loop}): a call the provider runs ran locally`,
        detail: `marker ${provider}`,
      });
    }
  }
  return findings;
}

function summary(outcome: PathOutcome): string {
  if (!outcome.ok) return describeThrown(outcome.error);
  try {
    const message = (outcome.value as { message?: unknown }).message;
    return JSON.stringify(message).slice(0, 160);
  } catch {
    return 'a response that cannot be printed';
  }
}

/**
 * Target 3: an AI SDK model's answer through `fromAiSdkModel`, whole (`generate`) and streamed
 * (`stream`, collected), and through the loop by one of the two. Neither path may throw but the
 * documented errors, let a call the provider runs out as a local call, or (for the same answer)
 * disagree with the other; the loop never runs a call the provider runs.
 */
export function aiSdkTarget(tools: FuzzRegistry = createFuzzRegistry(AI_SDK_TOOLS)): FuzzTarget<AiSdkCase> {
  return {
    name: 'ai-sdk',
    arbitrary: aiSdkCase(),
    start(spec) {
      const answer = materializeAnswer(spec);
      const data: RanData = { ran: [] };
      const run = async (): Promise<AiSdkRun> => {
        const generated = await settle(generateAiSdkAnswer(script(answer)));
        const streamed = await settle(streamAiSdkAnswer(script(answer)));
        const looped =
          spec.loop === 'none'
            ? undefined
            : await settle(
                runAiSdkLoop({ script: script(answer), tools, streamDeltas: spec.loop === 'stream', data }),
              );
        return { generated, streamed, looped };
      };
      return {
        promise: run(),
        judge: (settled: Exclude<Settled, { status: 'hung' }>) =>
          settled.status === 'resolved'
            ? judge(settled.value as AiSdkRun, spec, answer, data.ran)
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
