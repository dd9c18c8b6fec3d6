// The SDK-independent core of `toolwarden mcp-proxy`: its config file and the per-session decisions. The
// SDK binding (the stdio server in front, the upstream client behind) builds on these.

export type { ResolvedGuard } from '../run/stop-conditions.js';
export type {
  CallDecision,
  Confirm,
  ConfirmationAnswer,
  Forward,
  ForwardContract,
  Observation,
  Refusal,
  RefusalCode,
} from './call-decision.js';
export { filterTools, isToolVisible } from './filter-tools.js';
export type { UpstreamAnswer } from './guard-answer.js';
export {
  CODE_META_KEY,
  type ProxiedTool,
  type ProxyCallToolResult,
  type ProxyContentPart,
} from './mcp-shapes.js';
export {
  type AuditConfig,
  type ConfirmConfig,
  type OutputContract,
  type OutputContractMode,
  type ProxyConfig,
  parseProxyConfig,
  parseProxyConfigText,
  type StoreConfig,
  type UpstreamEnv,
} from './proxy-config.js';
export { type ConfigProblem, ProxyConfigError, type ProxyConfigErrorOptions } from './proxy-config-error.js';
export { refusalResult, withNote } from './refusal-result.js';
export { type RefusalReason, refusalOf } from './refusal-text.js';
export { createSessionPolicy, type SessionPolicy, type SessionPolicyOptions } from './session-policy.js';
export { matchesAny, matchesPattern } from './tool-pattern.js';
export { isDestructive, isWriteTool, needsConfirmation } from './tool-traits.js';
