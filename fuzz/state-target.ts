import { isDeepStrictEqual } from 'node:util';
import {
  type DecisionSpec,
  materializeDocument,
  reorderKeys,
  type StateCase,
  stateCase,
} from './hostile-state.js';
import { describeThrown, type Finding, type FuzzTarget, type Settled, signatureOf } from './oracle.js';
import {
  createShopRegistry,
  FULL_PROXY_CONFIG,
  type FuzzRegistry,
  isDocumentedRejection,
  isProxyConfigError,
  isRunStateError,
  parseConfigText,
  pausedStateText,
  restoreState,
  resumeState,
  type ShopRecord,
  WAITING_CALLS,
} from './targets.js';

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

function attempt(call: () => unknown): Outcome {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A finding when `outcome` threw something other than what `documented` accepts. */
function undocumented(outcome: Outcome, documented: (error: unknown) => boolean, where: string): Finding[] {
  if (outcome.ok || documented(outcome.error)) return [];
  return [
    {
      oracle: 'undocumented-rejection',
      signature: `${where}: ${signatureOf(outcome.error)}`,
      detail: describeThrown(outcome.error),
    },
  ];
}

/** A mutated state, restored as an object and as its JSON text: a `RunStateError` or a state, nothing else. */
function judgeState(base: string, spec: Extract<StateCase, { kind: 'state' }>): Finding[] {
  const { value, text } = materializeDocument(base, spec.mutations);
  return [
    ...undocumented(
      attempt(() => restoreState(value)),
      isRunStateError,
      'restoreRunState (object)',
    ),
    ...(text === undefined
      ? []
      : undocumented(
          attempt(() => restoreState(text)),
          isRunStateError,
          'restoreRunState (JSON)',
        )),
  ];
}

const CONFIG_TEXT = JSON.stringify(FULL_PROXY_CONFIG);

/**
 * A mutated proxy config, as its (perhaps cut) JSON text, the only form a config file comes in: a
 * `ProxyConfigError` or a config.
 */
function judgeConfig(spec: Extract<StateCase, { kind: 'config' }>): Finding[] {
  const { text } = materializeDocument(CONFIG_TEXT, spec.mutations);
  if (text === undefined) return [];
  const cut = spec.cut === undefined ? text : text.slice(0, spec.cut);
  return undocumented(
    attempt(() => parseConfigText(cut)),
    isProxyConfigError,
    'parseProxyConfigText',
  );
}

/**
 * The paused state, its keys reordered: it must restore to the value the original restores to; resumed,
 * a waiting call runs only if it was approved (the policy asks a person for every refund).
 */
async function judgeReorder(
  base: string,
  spec: Extract<StateCase, { kind: 'reorder' }>,
  shop: FuzzRegistry,
): Promise<Finding[]> {
  const original = restoreState(base);
  const reordered = reorderKeys(JSON.parse(base), spec.seed);
  const saved = spec.form === 'json' ? JSON.stringify(reordered) : reordered;
  const restored = attempt(() => restoreState(saved));
  if (!restored.ok) {
    return [
      {
        oracle: 'reorder-refused',
        signature: `a state with its keys reordered was refused (${spec.form}): ${signatureOf(restored.error)}`,
        detail: describeThrown(restored.error),
      },
    ];
  }
  const findings: Finding[] = [];
  if (!isDeepStrictEqual(restored.value, original)) {
    findings.push({
      oracle: 'reorder-refused',
      signature: `a state with its keys reordered restored to another value (${spec.form})`,
    });
  }
  const decisions: Record<string, 'run' | 'deny'> = {};
  WAITING_CALLS.forEach(({ id }, index) => {
    const decision: DecisionSpec = spec.decisions[index] ?? 'none';
    if (decision !== 'none') decisions[id] = decision;
  });
  if (spec.strayDecision) decisions.g1 = 'run';
  const record: ShopRecord = { refunds: [], reads: [] };
  const resumed = await resumeState({ saved, shop, decisions, record }).then(
    (value): Outcome => ({ ok: true, value }),
    (error: unknown): Outcome => ({ ok: false, error }),
  );
  findings.push(
    ...undocumented(resumed, (error) => isDocumentedRejection(error, undefined), 'runToolLoop from a state'),
  );
  for (const orderId of record.refunds) {
    const call = WAITING_CALLS.find((waiting) => waiting.orderId === orderId);
    if (call === undefined || decisions[call.id] !== 'run') {
      findings.push({
        oracle: 'approved-call-missing-decision',
        signature: `a waiting call ran without an approval (${call === undefined ? 'unknown' : (decisions[call.id] ?? 'none')})`,
        detail: `refunded ${orderId}; decisions ${JSON.stringify(decisions)}`,
      });
    }
  }
  return findings;
}

/**
 * Target 4: saved run states and the proxy's config file, hostile. `restoreRunState` refuses with
 * `RunStateError` only, the config's parsers with `ProxyConfigError` only; a state whose keys are only
 * reordered restores as the original, and resumed, runs no waiting call it has no approval for.
 */
export function stateTarget(shop: FuzzRegistry = createShopRegistry()): FuzzTarget<StateCase> {
  let base: Promise<string> | undefined;
  return {
    name: 'state',
    arbitrary: stateCase(),
    start(spec) {
      base ??= pausedStateText(shop);
      const run = async (): Promise<Finding[]> => {
        if (spec.kind === 'config') return judgeConfig(spec);
        const text = await base;
        if (text === undefined) return [];
        return spec.kind === 'state' ? judgeState(text, spec) : judgeReorder(text, spec, shop);
      };
      return {
        promise: run(),
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
