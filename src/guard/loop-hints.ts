import { DEFAULT_MAX_UNCHANGED_POLLS, DEFAULT_VOLATILE_RESULT_FIELDS } from '../core/defaults.js';
import type { LoopHints } from '../tools/loop-hints.js';

/** A tool's hints, resolved: what the fingerprints and detectors read. */
export interface ResolvedHints {
  /** Whether a result key is left out of the result's fingerprint. */
  readonly skipKey: (key: string) => boolean;
  /** Whether the tool names fields of its own to leave out (the defaults apply to every tool). */
  readonly ownFields: boolean;
  /** Unchanged polls allowed in a request; 0 when the tool is not polled. */
  readonly maxUnchanged: number;
  readonly sharedResults: boolean;
  readonly unordered: boolean;
}

/** Field names compare with case, `_` and `-` ignored (`checked_at`, `checkedAt`, `CHECKED-AT`). */
export function fieldKey(name: string): string {
  return name.replace(/[_-]/g, '').toLowerCase();
}

const DEFAULT_SKIPPED = new Set(DEFAULT_VOLATILE_RESULT_FIELDS.map(fieldKey));

/** The hints in force for a tool: the loop's over the tool's own, field by field, over the defaults. */
export function resolveHints(own: LoopHints | undefined, loop: LoopHints | undefined): ResolvedHints {
  const fields = [...(own?.ignoreFields ?? []), ...(loop?.ignoreFields ?? [])];
  const skipped =
    fields.length === 0 ? DEFAULT_SKIPPED : new Set([...DEFAULT_SKIPPED, ...fields.map(fieldKey)]);
  const polled = loop?.polled ?? own?.polled ?? false;
  return {
    skipKey: (key) => skipped.has(fieldKey(key)),
    ownFields: fields.length > 0,
    maxUnchanged:
      polled === false
        ? 0
        : polled === true
          ? DEFAULT_MAX_UNCHANGED_POLLS
          : (polled.maxUnchanged ?? DEFAULT_MAX_UNCHANGED_POLLS),
    sharedResults: loop?.sharedResults ?? own?.sharedResults ?? false,
    unordered: loop?.unordered ?? own?.unordered ?? false,
  };
}

/**
 * A guard's `hintsOf`: each tool's hints (its own, under the loop's) resolved on first use and kept, since
 * the detectors ask for them once per record of the window, every round.
 */
export function hintsByTool(
  ownOf: (tool: string) => LoopHints | undefined,
  loop: Readonly<Record<string, LoopHints>>,
): (tool: string) => ResolvedHints {
  const resolved = new Map<string, ResolvedHints>();
  return (tool) => {
    let hints = resolved.get(tool);
    if (hints === undefined) {
      hints = resolveHints(ownOf(tool), loop[tool]);
      resolved.set(tool, hints);
    }
    return hints;
  };
}

/**
 * A result text that may hold a default volatile field (any spelling `fieldKey` equates): worth parsing to
 * leave it out. Without it, and without fields of the tool's own, the text is fingerprinted as it is.
 */
export const VOLATILE_FIELD_PATTERN = new RegExp(
  `"(?:${[...DEFAULT_SKIPPED].map((key) => [...key].join('[_-]?')).join('|')})"\\s*:`,
  'i',
);
