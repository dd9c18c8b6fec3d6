import { describe, expect, it } from 'vitest';
import type { LoopDetector, LoopEvidence } from '../core/guard-state.js';
import { loopNote } from './loop-note.js';

const evidence = (detector: LoopDetector, toolNames: string[]): LoopEvidence => ({
  detector,
  toolNames,
  fingerprints: [],
  occurrences: 3,
  rounds: [1, 2, 3],
});
const DETECTORS: LoopDetector[] = [
  'exact-repeat',
  'same-result',
  'unchanged-poll',
  'no-progress',
  'cycle',
  'still-unavailable',
];

describe('loopNote', () => {
  it.each(DETECTORS)('%s: names legal tools as they are, with the rounds', (detector) => {
    const note = loopNote(evidence(detector, ['getOrder', 'searchCatalogueByRegionAndYear2024Q1X']));
    expect(note.startsWith('NOTE from the runtime: ')).toBe(true);
    if (detector !== 'no-progress') expect(note).toContain('getOrder, searchCatalogueByRegionAndYear2024Q1X');
  });

  it.each(DETECTORS)(
    '%s: a name the model made up is foreign text: redacted, one line, no control characters',
    (detector) => {
      const note = loopNote(evidence(detector, ['postgres://app:S3cr3t@db.internal:5432/x\n\u202eat evil']));
      expect(note).not.toContain('S3cr3t');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none survive.
      expect(note).not.toMatch(/[\u0000-\u001f\u202e]/);
    },
  );
});
