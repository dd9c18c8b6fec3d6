/**
 * The classes of issue 24 ("Loop guard v3"), numbered as the issue numbers them: 1-4 are legitimate work the
 * guard must not stop, 5-12 loops it must catch within three rounds of the round that shows them. Each
 * class holds both kinds of scenario: the work it names and its near misses.
 */
export const GUARD_CLASSES = {
  'ack-new-state': {
    number: 1,
    kind: 'legitimate',
    title: 'an identical write acknowledgement that opens new state',
  },
  'distinct-entities': { number: 2, kind: 'legitimate', title: 'identical results for distinct entities' },
  'shell-edits': { number: 3, kind: 'legitimate', title: 'a shell tool between edits' },
  'raised-ceiling': { number: 4, kind: 'legitimate', title: 'a raised ceiling' },
  'no-op-writes': { number: 5, kind: 'loop', title: 'progress reset by writes that change nothing' },
  'fresh-token': { number: 6, kind: 'loop', title: 'a fresh token in the arguments, the result the same' },
  'volatile-values': { number: 7, kind: 'loop', title: 'identical but for volatile-looking values' },
  'fresh-client-id': { number: 8, kind: 'loop', title: 'a write repeated with a fresh client id' },
  'flip-flop': { number: 9, kind: 'loop', title: 'a write flip-flopping between states' },
  'denial-workaround': { number: 10, kind: 'loop', title: 'a denial worked around by switching tools' },
  'input-spellings': { number: 11, kind: 'loop', title: 'the same error for many spellings of one input' },
  'retry-per-request': { number: 12, kind: 'loop', title: 'a failing call repeated once per user request' },
} as const satisfies Record<string, { number: number; kind: 'legitimate' | 'loop'; title: string }>;

/** One class of issue 24, by name. */
export type GuardClass = keyof typeof GUARD_CLASSES;

/** The classes in the order. */
export const GUARD_CLASS_NAMES = Object.keys(GUARD_CLASSES) as readonly GuardClass[];

/** The family a scenario of the class is listed under: `v3 <class>`. */
export function guardClassFamily(name: GuardClass): string {
  return `v3 ${name}`;
}
