/**
 * `npm run fuzz`: hostile model outputs through the chain and the loop, every oracle counted.
 *
 *   npm run fuzz                                  100,000 chain runs and 5,000 loop runs
 *   npm run fuzz -- --chain 10000 --loop 1000     smaller
 *   npm run fuzz -- --target loop --seed 7 --path 12:0:3   replay one case (printed by a report)
 *
 * Flags: --chain N, --loop N, --seed N, --deadline-ms N (a run that takes longer hangs; default 2000),
 * --repros N (failure kinds shrunk per oracle; default 3), --shrink-ms N (per repro; default 20000),
 * --target chain|loop (only that one), --path P (replay). Exits 1 when any count is not 0.
 */
import { parseArgs } from 'node:util';
import { chainTarget } from './chain-target.js';
import { loopTarget } from './loop-target.js';
import { renderReport, totalFailures } from './render-report.js';
import { type CampaignReport, replayCase, runCampaign } from './run-campaign.js';
import { DEFAULT_SEED } from './seed.js';

const { values } = parseArgs({
  options: {
    chain: { type: 'string', default: '100000' },
    loop: { type: 'string', default: '5000' },
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
const targets = values.target === undefined ? ['chain', 'loop'] : [values.target];
if (!targets.every((t) => t === 'chain' || t === 'loop')) throw new Error('--target must be chain or loop');

if (values.path !== undefined) {
  if (targets.length !== 1) throw new Error('--path needs --target');
  const target = targets[0] === 'chain' ? chainTarget() : loopTarget();
  const { spec, findings } = await replayCase(target as never, { seed, path: values.path, deadlineMs });
  out(`case: ${spec}`);
  out(
    findings.length === 0
      ? 'no findings'
      : findings.map((f) => `[${f.oracle}] ${f.signature}${f.detail ? ` (${f.detail})` : ''}`).join('\n'),
  );
  process.exit(findings.length === 0 ? 0 : 1);
}

const reports: CampaignReport[] = [];
for (const name of targets) {
  const runs = count(name === 'chain' ? 'chain' : 'loop');
  const options = {
    runs,
    seed,
    deadlineMs,
    reprosPerOracle: count('repros'),
    shrinkMs: count('shrink-ms'),
    progressEvery: name === 'chain' ? 10_000 : 500,
    onProgress: (done: number) => process.stderr.write(`  ${name}: ${done}/${runs}\n`),
  };
  process.stderr.write(`fuzzing the ${name} (${runs} runs, seed ${seed})\n`);
  reports.push(
    name === 'chain' ? await runCampaign(chainTarget(), options) : await runCampaign(loopTarget(), options),
  );
}
out(renderReport(reports));
const failures = totalFailures(reports);
out(failures === 0 ? '\nAll counts are 0.' : `\n${failures} failing runs (summed over oracles).`);
// Runs that hung may still hold timers; the verdict is in.
process.exit(failures === 0 ? 0 : 1);
