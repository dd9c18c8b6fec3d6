import { benchChainOverhead } from './chain-overhead.js';

const sections = [benchChainOverhead];

console.log(`toolwarden benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);
for (const section of sections) {
  const lines = await section();
  console.log(`${lines.join('\n')}\n`);
}
