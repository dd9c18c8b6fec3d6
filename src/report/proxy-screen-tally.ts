import type { ProxyScreenReport } from './audit-report.js';
import { compareText, mostFirst } from './report-figures.js';
import type { ReportCall, ReportToolChange } from './report-input.js';

/** Tool definition changes a report keeps (the newest), so a hostile log cannot grow it without bound. */
const MAX_CHANGES = 50;
/** Tools counted by their rate-limited calls, at most (then the rest are left out of that list). */
const MAX_RATE_TOOLS = 1_000;

/** Adds up what the MCP proxy's screen did, record by record, in memory bounded by the lists' caps. */
export class ProxyScreenTally {
  private readonly actions = { blocked: 0, redacted: 0, audited: 0 };
  private readonly rules = new Map<string, number>();
  private readonly rateLimited = new Map<string, number>();
  private readonly changes = new Map<string, ReportToolChange>();

  addCall(call: ReportCall): void {
    for (const { action, rules } of call.secrets ?? []) {
      if (action === 'blocked' || action === 'redacted' || action === 'audited') this.actions[action]++;
      for (const rule of rules) this.rules.set(rule, (this.rules.get(rule) ?? 0) + 1);
    }
    if (
      call.code === 'RATE_LIMITED' &&
      (this.rateLimited.size < MAX_RATE_TOOLS || this.rateLimited.has(call.toolName))
    )
      this.rateLimited.set(call.toolName, (this.rateLimited.get(call.toolName) ?? 0) + 1);
  }

  addChange(change: ReportToolChange): void {
    const key = `${change.server}\u0000${change.tool}\u0000${change.digest}`;
    const known = this.changes.get(key);
    if (known !== undefined && known.at > change.at) return;
    this.changes.delete(key);
    this.changes.set(key, change);
    if (this.changes.size > MAX_CHANGES) {
      const oldest = [...this.changes].sort(([, a], [, b]) => compareText(a.at, b.at))[0];
      if (oldest !== undefined) this.changes.delete(oldest[0]);
    }
  }

  report(): ProxyScreenReport {
    return {
      secrets: {
        ...this.actions,
        byRule: mostFirst(this.rules).map(([rule, calls]) => ({ rule, calls })),
      },
      rateLimited: mostFirst(this.rateLimited).map(([tool, count]) => ({ tool, count })),
      toolChanges: [...this.changes.values()]
        .sort((a, b) => compareText(b.at, a.at) || compareText(a.tool, b.tool))
        .map(({ at, server, tool, outcome, digest, pinnedDigest }) => ({
          at,
          server,
          tool,
          outcome,
          digest,
          pinnedDigest,
        })),
    };
  }
}
