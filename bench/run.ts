import { benchAiSdk } from './ai-sdk.js';
import { benchChainOverhead } from './chain-overhead.js';
import { benchDesignFloor } from './design-floor.js';
import { benchGateway } from './gateway.js';
import { benchGuardTools } from './guard-tools.js';
import { benchLoopOverhead } from './loop-overhead.js';
import { benchMcpProxy } from './mcp-proxy.js';
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
  benchStreaming,
  benchAiSdk,
  benchRedaction,
  benchStores,
  benchTelemetry,
  benchReport,
  benchGuardTools,
  benchMcpProxy,
  benchGateway,
];

console.log(`toolwarden benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
for (const section of sections) {
  const lines = await section();
  console.log(`${lines.join('\n')}\n`);
}
