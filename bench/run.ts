import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchAiSdk } from './ai-sdk.js';
import { benchChainOverhead } from './chain-overhead.js';
import { benchDesignFloor } from './design-floor.js';
import { benchDurable } from './durable.js';
import { benchGateway } from './gateway.js';
import { benchGuardCost } from './guard-cost.js';
import { benchGuardTools } from './guard-tools.js';
import { benchLoopOverhead } from './loop-overhead.js';
import { benchMcpProxy } from './mcp-proxy.js';
import { benchMcpProxyHttp } from './mcp-proxy-http.js';
import { benchMcpProxySecretScan } from './mcp-proxy-secret-scan.js';
import { benchOutputContract } from './output-contract.js';
import { benchRedaction } from './redaction.js';
import { benchReport } from './report.js';
import { benchStores } from './stores.js';
import { benchStreaming } from './streaming.js';
import { benchTelemetry } from './telemetry.js';

const sections = [
  benchChainOverhead,
  benchDesignFloor,
  benchOutputContract,
  benchLoopOverhead,
  benchGuardCost,
  benchStreaming,
  benchAiSdk,
  benchRedaction,
  benchStores,
  benchTelemetry,
  benchReport,
  benchGuardTools,
  benchMcpProxy,
  benchMcpProxySecretScan,
  benchMcpProxyHttp,
  benchGateway,
  benchDurable,
];

// BENCH_ONLY=loop,guard runs the sections whose function names hold one of the words (case ignored).
const only = process.env.BENCH_ONLY?.toLowerCase().split(',').filter(Boolean);
const chosen =
  only === undefined ? sections : sections.filter((s) => only.some((w) => s.name.toLowerCase().includes(w)));

// Each section runs in a process of its own, as benchmark harnesses fork per benchmark: what one section
// leaves behind (a grown heap, call sites its shapes made megamorphic) would otherwise tax the next
// section's subjects unevenly, the current build's (exercised by every earlier section) more than a
// baseline build's. Side by side still means within one section, in one process.
const section = process.env.BENCH_SECTION;
if (section === undefined) {
  console.log(`toolwarden benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
  for (const { name } of chosen) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SECTION: name },
    });
    if (child.status !== 0) throw new Error(`the bench section ${name} failed (exit ${child.status})`);
  }
} else {
  const run = sections.find((s) => s.name === section);
  if (run === undefined) throw new Error(`no bench section is named ${section}`);
  console.log(`${(await run()).join('\n')}\n`);
}
