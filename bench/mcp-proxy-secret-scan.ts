import { scanArguments, scanResult } from '../dist/adapters/mcp/proxy/secret-scan.js';
import { compare, formatRow, type Subject } from './measure.js';

type Result = Parameters<typeof scanResult>[0];

/** An issue as a GitHub server answers it: about 2 KiB of JSON, in a text part and as structured content. */
const ISSUE = {
  id: 2_412_345_678,
  number: 4321,
  title: 'The proxy drops the session when the upstream restarts',
  state: 'open',
  user: { login: 'octocat', id: 583231, type: 'User', site_admin: false },
  labels: [
    { name: 'bug', color: 'd73a4a' },
    { name: 'mcp', color: '0e8a16' },
  ],
  body: 'Steps to reproduce:\n1. Start the proxy with --listen 127.0.0.1:8080\n2. Restart the server\n3. Call any tool: the client sees TOOL_UNAVAILABLE until it reconnects.\n'.repeat(
    6,
  ),
  created_at: '2026-11-30T09:12:44Z',
  url: 'https://api.github.com/repos/acme/widgets/issues/4321',
  head_sha: '3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
};
const ISSUE_TEXT = JSON.stringify(ISSUE, null, 2);
/** 8 KiB of a source file as a filesystem server's `read_text_file` answers it. */
const FILE = 'export function add(a: number, b: number): number {\n  return a + b; // the sum\n}\n'
  .repeat(110)
  .slice(0, 8192);

const RESULTS: ReadonlyArray<readonly [string, Result]> = [
  ['a short text (server-everything echo)', { content: [{ type: 'text', text: 'Echo: m1234' }] }],
  [
    'a 2 KiB JSON issue, as text and structured content',
    { content: [{ type: 'text', text: ISSUE_TEXT }], structuredContent: ISSUE },
  ],
  ['an 8 KiB file', { content: [{ type: 'text', text: FILE }] }],
  [
    'a 2 KiB JSON issue holding a token (redacted)',
    {
      content: [{ type: 'text', text: ISSUE_TEXT.replace('octocat', `ghp_${'Zq7Lk2Vb9X'.repeat(3)}Pw4mN8`) }],
    },
  ],
];
const ARGUMENTS = JSON.stringify({
  owner: 'acme',
  repo: 'widgets',
  title: 'Flaky test',
  body: 'It fails one run in ten.',
});

function subject(name: string, scan: () => number): Subject {
  let sink = 0;
  return {
    name,
    async run(n) {
      for (let i = 0; i < n; i++) sink += scan();
      if (sink < 0) throw new Error('unreachable');
    },
  };
}

/**
 * The MCP proxy's secret scan per call, both ways (`secrets`, on by default): the arguments of an
 * ordinary call and typical successful results, beside the proxy's own latency (the section above).
 */
export async function benchMcpProxySecretScan(): Promise<string[]> {
  const subjects = [
    subject('arguments of an ordinary call (scanArguments)', () => scanArguments(ARGUMENTS).rules.length),
    ...RESULTS.map(([name, result]) => subject(`result: ${name}`, () => scanResult(result).rules.length + 1)),
  ];
  const { medians } = await compare(subjects, { rounds: 15, operations: 500, warmup: 500 });
  return [
    '#### MCP proxy: the secret scan per call (median of 15 interleaved rounds)',
    '',
    formatRow(['subject', 'µs per call']),
    formatRow(['---', '---']),
    ...subjects.map((s) => formatRow([s.name, medians[s.name] ?? 0])),
  ];
}
