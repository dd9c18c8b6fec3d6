import { DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS } from '../core/defaults.js';
import type { PendingCall } from '../core/pending-call.js';
import { summarizeArguments } from '../redact/redact.js';
import { argumentsDigest } from './arguments-digest.js';

export type { PendingCall };

/** The pending call of a call, its summary and digest computed from the call itself. */
export function pendingCall(input: {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: string;
  readonly reason?: string | undefined;
  readonly payload?: unknown;
}): PendingCall {
  const { toolCallId, toolName, arguments: raw, reason, payload } = input;
  return {
    toolCallId,
    toolName,
    arguments: raw,
    argumentsSummary: summarizeArguments(raw, DEFAULT_MAX_ARGUMENT_SUMMARY_CHARS),
    argumentsDigest: argumentsDigest(toolName, raw),
    ...(reason === undefined ? {} : { reason }),
    ...(payload === undefined ? {} : { payload }),
  };
}
