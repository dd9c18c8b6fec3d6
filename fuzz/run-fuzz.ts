/**
 * `npm run fuzz`: hostile model outputs through the chain, the loop and the AI SDK adapter, hostile saved
 * run states and proxy configs, and hostile requests and provider streams through the gateway's chat wire,
 * every oracle counted.
 *
 *   npm run fuzz                                  100,000 chain runs, 5,000 loop runs, 5,000 AI SDK answers,
 *                                                 5,000 saved states and configs, 5,000 gateway cases
 *   npm run fuzz -- --chain 10000 --loop 1000     smaller
 *   npm run fuzz -- --target ai-sdk --ai-sdk 2000 one target
 *   npm run fuzz -- --target loop --seed 7 --path 12:0:3   replay one case (printed by a report)
 *
 * Flags: --chain N, --loop N, --ai-sdk N, --state N, --gateway N, --seed N, --deadline-ms N (a run that takes longer hangs;
 * default 2000), --repros N (failure kinds shrunk per oracle; default 3), --shrink-ms N (per repro;
 * default 20000), --target chain|loop|ai-sdk|state|gateway (only that one), --path P (replay). Exits 1 when any count
 * is not 0.
 */
import { parseArgs } from 'node:util';
import { aiSdkTarget } from './ai-sdk-target.js';
import { chainTarget } from './chain-target.js';
import { gatewayTarget } from './gateway-target.js';
import { loopTarget } from './loop-target.js';
import type { FuzzTarget, TargetName } from './oracle.js';
import { renderReport, totalFailures } from './render-report.js';
import { type CampaignReport, replayCase, runCampaign } from './run-campaign.js';
import { DEFAULT_SEED } from './seed.js';
import { stateTarget } from './state-target.js';

const { values } = parseArgs({
  options: {
    chain: { type: 'string', default: '100000' },
    loop: { type: 'string', default: '5000' },
    'ai-sdk': { type: 'string', default: '5000' },
    state: { type: 'string', default: '5000' },
    gateway: { type: 'string', default: '5000' },
    seed: { type: 'string', default: String(DEFAULT_SEED) },
    'deadline-ms': { type: 'string', default: '2000' },
    repros: { type: 'string', default: '3' },
    'shrink-ms': { type: 'string', default: '20000' },
    target: { type: 'string' },
    path: { type: 'string' },
  },
});

function count(name: keyof typeof values): number {
  const value = Number(values[name]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be an integer >= 0`);
  return value;
}

const out = (text: string) => process.stdout.write(`${text}\n`);
const seed = count('seed');
const deadlineMs = count('deadline-ms');
const NAMES: readonly TargetName[] = ['chain', 'loop', 'ai-sdk', 'state', 'gateway'];
const isName = (name: string): name is TargetName => (NAMES as readonly string[]).includes(name);
const targets = values.target === undefined ? NAMES : [values.target];
if (!targets.every(isName)) throw new Error('--target must be chain, loop, ai-sdk, state or gateway');

function targetOf(name: TargetName): FuzzTarget<unknown> {
  const make = {
    chain: chainTarget,
    loop: loopTarget,
    'ai-sdk': aiSdkTarget,
    state: stateTarget,
    gateway: gatewayTarget,
  }[name];
  return make() as FuzzTarget<unknown>;
}

if (values.path !== undefined) {
  if (targets.length !== 1) throw new Error('--path needs --target');
  const { spec, findings } = await replayCase(targetOf(targets[0] as TargetName), {
    seed,
    path: values.path,
    deadlineMs,
  });
  out(`case: ${spec}`);
  out(
    findings.length === 0
      ? 'no findings'
      : findings.map((f) => `[${f.oracle}] ${f.signature}${f.detail ? ` (${f.detail})` : ''}`).join('\n'),
  );
  process.exit(findings.length === 0 ? 0 : 1);
}

const reports: CampaignReport[] = [];
for (const name of targets as readonly TargetName[]) {
  const runs = count(name);
  const options = {
    runs,
    seed,
    deadlineMs,
    reprosPerOracle: count('repros'),
    shrinkMs: count('shrink-ms'),
    progressEvery: name === 'chain' ? 10_000 : name === 'loop' ? 500 : 1_000,
    onProgress: (done: number) => process.stderr.write(`  ${name}: ${done}/${runs}\n`),
  };
  process.stderr.write(`fuzzing the ${name} (${runs} runs, seed ${seed})\n`);
  reports.push(await runCampaign(targetOf(name), options));
}
out(renderReport(reports));
const failures = totalFailures(reports);
out(failures === 0 ? '\nAll counts are 0.' : `\n${failures} failing runs (summed over oracles).`);
// Runs that hung may still hold timers; the verdict is in.
process.exit(failures === 0 ? 0 : 1);
