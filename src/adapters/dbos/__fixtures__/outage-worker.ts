// The outage test's process: `outage-worker.ts <wait|die|recover> <setup JSON>`. The runtime's store
// reaches PostgreSQL through a TCP proxy of this process (DBOS reaches it directly); the first tool call
// of the turn (a read) cuts the proxy: the database of the records went away. The next call is a write:
// its claim fails, and the store-fail event is logged (`store-fail`) before anything else. Then:
//   wait:    the event restores the proxy; the turn goes on in this process;
//   die:     the process dies there (process.exit(1)), the database still away;
//   recover: launches with the database back; DBOS recovers the turn.
//   all-down: DBOS reaches the database through the proxy too, so the cut takes both away: DBOS logs that
//             it waits for its database; the proxy is restored when the test writes `restore` on stdin.
// Each prints the turn's outcome when it has one.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { startTcpProxy } from '../../postgres/__fixtures__/tcp-proxy.js';
import { report, setUpWorker, summary } from './dbos-worker.js';
import { effectsLog } from './five-call-turn.js';

const [action = '', setupJson = '{}'] = process.argv.slice(2);
const setup = JSON.parse(setupJson);
const note = effectsLog(setup.effects);
const proxy = await startTcpProxy();
const turn = { sessionId: 's-1', turnId: 'turn-1' };
let failures = 0;
const port = new URL(proxy.url).port;
const throughProxy = (url: string) => url.replace('127.0.0.1:5432', `127.0.0.1:${port}`);
if (action === 'all-down') {
  process.stdin.on('data', (chunk) => {
    if (String(chunk).includes('restore')) void proxy.restore();
  });
}
const { turns, store } = await setUpWorker({
  ...setup,
  ...(action === 'all-down' ? { url: throughProxy(setup.url), logLevel: 'warn' } : {}),
  storeUrl: proxy.url,
  onTool: async (name) => {
    if (name === 'lookup' && action !== 'recover') await proxy.cut();
  },
  turns: {
    run: {
      onEvent: (event) => {
        if (event.type !== 'store-fail' || event.operation !== 'idempotency') return;
        failures += 1;
        if (failures > 1) return;
        note('store-fail', 's-1');
        if (action === 'die') process.exit(1);
        if (action === 'wait') void proxy.restore();
      },
    },
  },
});
await DBOS.launch();
const outcome =
  action === 'recover'
    ? await DBOS.retrieveWorkflow<Parameters<typeof summary>[0]>(turns.workflowId(turn)).getResult()
    : await turns.run({ ...turn, messages: [{ role: 'user', content: 's-1' }] });
report({ outcome: summary(outcome) });
await DBOS.shutdown();
await store.close();
await proxy.close();
process.exit(0);
