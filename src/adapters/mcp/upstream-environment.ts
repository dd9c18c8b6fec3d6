import type { UpstreamEnv } from './proxy/proxy-config.js';

/**
 * The upstream server's environment, explicit: the variables `pass` names, read from `from` (the proxy's
 * own environment), then the fixed values of `set` (which win). Nothing else of the proxy's environment
 * goes on: a secret the proxy holds (an API key, a token) reaches the server only when the config names
 * it. The MCP SDK's stdio transport adds its short safe list itself (`HOME`, `LOGNAME`, `PATH`, `SHELL`,
 * `TERM`, `USER`), which a server needs to start at all.
 */
export function upstreamEnvironment(
  env: UpstreamEnv,
  from: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = Object.create(null);
  for (const name of env.pass) {
    const value = from[name];
    if (value !== undefined) result[name] = value;
  }
  for (const [name, value] of Object.entries(env.set)) result[name] = value;
  return { ...result };
}
