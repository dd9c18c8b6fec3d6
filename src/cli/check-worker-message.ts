import type { CheckModuleEnd, CheckModuleProgress } from '../check/check-module.js';

/**
 * What the check process (check-worker.ts) sends its parent: `ready` once it has started (the import
 * comes next), its progress, then its end, or `failed` when it cannot finish (its own code threw,
 * nothing was left to run).
 */
export type CheckWorkerMessage =
  | { readonly type: 'ready' }
  | CheckModuleProgress
  | CheckModuleEnd
  | { readonly type: 'failed'; readonly reason: string };

const TYPES = new Set(['ready', 'loaded', 'example', 'tool', 'stray', 'done', 'load-failed', 'failed']);

/** A message of that shape (the parent reads only what it expects; the rest is ignored). */
export function isCheckWorkerMessage(value: unknown): value is CheckWorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (typeof message.type !== 'string' || !TYPES.has(message.type)) return false;
  switch (message.type) {
    case 'ready':
      return true;
    case 'loaded':
      return typeof message.tools === 'number';
    case 'example':
      return typeof message.tool === 'string' && typeof message.example === 'string';
    case 'tool':
      return typeof message.check === 'object' && message.check !== null;
    case 'stray':
      return typeof message.error === 'string';
    case 'done':
      return typeof message.report === 'object' && message.report !== null;
    case 'load-failed':
      return typeof message.problem === 'string' && typeof message.message === 'string';
    default:
      return typeof message.reason === 'string';
  }
}
