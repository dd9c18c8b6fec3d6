/** The walker's open containers: how a finished child is added, and how a container is closed. */

export const KIND_ARRAY = 0;
export const KIND_OBJECT = 1;
export const KIND_MAP = 2;
export const KIND_SET = 3;
export type FrameKind = typeof KIND_ARRAY | typeof KIND_OBJECT | typeof KIND_MAP | typeof KIND_SET;

/** One open container. All fields are always present so frames stay monomorphic. */
export interface Frame {
  kind: FrameKind;
  source: object;
  /** array: the array itself; object: its sorted keys; map: [k0, v0, k1, v1, …]; set: its values. */
  items: ArrayLike<unknown>;
  length: number;
  /** Index of the child being processed; it advances once that child's text is delivered. */
  index: number;
  /** Output so far (arrays and objects). */
  out: string;
  /** Children's texts (maps and sets, which are sorted when closed). */
  parts: string[] | undefined;
}

/** Appends a finished child's text to its container and moves to the next child. */
export function deliver(frame: Frame, text: string): void {
  switch (frame.kind) {
    case KIND_ARRAY:
      frame.out += frame.index === 0 ? text : `,${text}`;
      break;
    case KIND_OBJECT: {
      const entry = `${JSON.stringify(frame.items[frame.index] as string)}:${text}`;
      frame.out += frame.out === '' ? entry : `,${entry}`;
      break;
    }
    default:
      (frame.parts as string[]).push(text);
  }
  frame.index++;
}

export function close(frame: Frame): string {
  switch (frame.kind) {
    case KIND_ARRAY:
      return `[${frame.out}]`;
    case KIND_OBJECT:
      return `{${frame.out}}`;
    case KIND_SET:
      return `[${(frame.parts as string[]).sort().join(',')}]`;
    default: {
      const parts = frame.parts as string[];
      const entries: string[][] = [];
      for (let i = 0; i + 1 < parts.length; i += 2)
        entries.push([parts[i] as string, parts[i + 1] as string]);
      entries.sort(compareEntries);
      let out = '[';
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i] as string[];
        out += `${i > 0 ? ',' : ''}[${entry[0]},${entry[1]}]`;
      }
      return `${out}]`;
    }
  }
}

/** By key text, then by value text (two distinct keys may serialize alike). Code-unit order. */
function compareEntries(a: string[], b: string[]): number {
  const ak = a[0] as string;
  const bk = b[0] as string;
  if (ak !== bk) return ak < bk ? -1 : 1;
  const av = a[1] as string;
  const bv = b[1] as string;
  return av === bv ? 0 : av < bv ? -1 : 1;
}

/** The key JSON.stringify would pass to toJSON. */
export function toJSONKey(parent: Frame | undefined): string {
  if (parent === undefined || parent.kind === KIND_MAP) return '';
  if (parent.kind === KIND_OBJECT) return parent.items[parent.index] as string;
  return String(parent.index);
}
