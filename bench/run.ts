import { benchAiSdk } from './ai-sdk.js';
import { benchChainOverhead } from './chain-overhead.js';
import { benchDesignFloor } from './design-floor.js';
import { benchGateway } from './gateway.js';
import { benchGuardCost } from './guard-cost.js';
import { benchGuardTools } from './guard-tools.js';
import { benchLoopOverhead } from './loop-overhead.js';
import { benchMcpProxy } from './mcp-proxy.js';
import { benchMcpProxyHttp } from './mcp-proxy-http.js';
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
  benchMcpProxyHttp,
  benchGateway,
];

// BENCH_ONLY=loop,guard runs the sections whose function names hold one of the words (case ignored).
const only = process.env.BENCH_ONLY?.toLowerCase().split(',').filter(Boolean);
const chosen =
  only === undefined ? sections : sections.filter((s) => only.some((w) => s.name.toLowerCase().includes(w)));

console.log(`toolwarden benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
for (const section of chosen) {
  const lines = await section();
  console.log(`${lines.join('\n')}\n`);
}
