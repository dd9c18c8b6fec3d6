import { describe, expect, it } from 'vitest';
import { aiSdkTarget } from './ai-sdk-target.js';
import { chainTarget } from './chain-target.js';
import { gatewayTarget } from './gateway-target.js';
import { loopTarget } from './loop-target.js';
import { renderReport, totalFailures } from './render-report.js';
import { runCampaign } from './run-campaign.js';
import { DEFAULT_SEED } from './seed.js';
import { stateTarget } from './state-target.js';

/**
 * The CI-sized fuzz run: the same campaign as `npm run fuzz`, smaller (1,500 chain outputs, 150 loop
 * runs, 500 AI SDK answers, 300 saved states and configs, one fixed seed). Every oracle must count 0; on failure the message is the report, with a shrunk
 * repro of the most frequent failure of each oracle and the command that replays it.
 */
const settings = { seed: DEFAULT_SEED, deadlineMs: 2_000, reprosPerOracle: 1, shrinkMs: 2_000 };

describe('fuzz (CI size)', () => {
  it('1,500 hostile model outputs through the chain: no crash, rejection, hang or malformed history', async () => {
    const report = await runCampaign(chainTarget(), { ...settings, runs: 1_500 });
    expect(totalFailures([report]), renderReport([report])).toBe(0);
  }, 120_000);

  it('150 scripted runs of hostile model outputs through the loop: the same, and the guard state saved', async () => {
    const report = await runCampaign(loopTarget(), { ...settings, runs: 150 });
    expect(totalFailures([report]), renderReport([report])).toBe(0);
  }, 120_000);

  it('500 hostile AI SDK answers, whole and streamed: no provider call run, both paths agree', async () => {
    const report = await runCampaign(aiSdkTarget(), { ...settings, runs: 500 });
    expect(totalFailures([report]), renderReport([report])).toBe(0);
  }, 120_000);

  it('300 hostile saved run states and proxy configs: documented refusals only, a reordered state restores and resumes', async () => {
    const report = await runCampaign(stateTarget(), { ...settings, runs: 300 });
    expect(totalFailures([report]), renderReport([report])).toBe(0);
  }, 120_000);

  it('500 hostile requests and provider streams through the gateway: JSON upstream, no call before it is judged, one [DONE]', async () => {
    const report = await runCampaign(gatewayTarget(), { ...settings, runs: 500 });
    expect(totalFailures([report]), renderReport([report])).toBe(0);
  }, 120_000);
});
