/**
 * The walker behind `serializeValue`. It keeps its own stack of open containers
 * (no recursion over the value), so nesting depth is bounded only by `maxDepth`, never by the JS stack.
 */
import type { SerializeFailureReason, SerializeOutcome } from './serialize-outcome.js';
import { describeThrown } from './serialize-outcome.js';
import {
  close,
  deliver,
  type Frame,
  type FrameKind,
  KIND_ARRAY,
  KIND_MAP,
  KIND_OBJECT,
  KIND_SET,
  toJSONKey,
} from './walker-frame.js';

const POINTER_ESCAPE = /[~/]/g;
/** Above this many ancestors, circular checks use a Set instead of scanning the stack. */
const LINEAR_SCAN_LIMIT = 32;
/** V8's maximum string length; an array whose output cannot fit fails early instead of exhausting memory. */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

/** Results of resolving one value. */
const LEAF = 0;
const SKIP = 1;
const CONTAINER = 2;
const FAIL = 3;
type Resolution = typeof LEAF | typeof SKIP | typeof CONTAINER | typeof FAIL;

const SharedArrayBufferCtor: typeof SharedArrayBuffer | undefined =
  typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined;

const dateGetTime = Date.prototype.getTime;
const dateToISOString = Date.prototype.toISOString;
const mapEntries = Map.prototype.entries;
const setValues = Set.prototype.values;

export class Walker {
  readonly maxDepth: number;
  readonly frames: Frame[] = [];
  ancestors: Set<object> | undefined = undefined;
  /** Set by resolve() when it returns LEAF. */
  leaf = '';
  /** Set by resolve() when it returns CONTAINER. */
  pending: Frame | undefined = undefined;
  failure: SerializeOutcome | undefined = undefined;

  constructor(maxDepth: number) {
    this.maxDepth = maxDepth;
  }

  /** Returns the text, or undefined with `failure` set. */
  run(value: unknown): string | undefined {
    const frames = this.frames;
    const root = this.resolve(value, undefined, true);
    if (root === LEAF) return this.leaf;
    if (root === SKIP) return 'null';
    if (root === FAIL) return undefined;
    if (!this.open()) return undefined;

    for (;;) {
      const frame = frames[frames.length - 1] as Frame;
      if (frame.index >= frame.length) {
        const text = close(frame);
        frames.pop();
        if (frames.length >= LINEAR_SCAN_LIMIT) this.ancestors?.delete(frame.source);
        const parent = frames[frames.length - 1];
        if (parent === undefined) return text;
        deliver(parent, text);
        continue;
      }

      let child: unknown;
      const kind = frame.kind;
      if (kind === KIND_OBJECT) {
        try {
          child = (frame.source as Record<string, unknown>)[frame.items[frame.index] as string];
        } catch (error) {
          if (this.fail('throwing-getter', `reading the property threw: ${describeThrown(error)}`)) return;
          deliver(frame, this.leaf);
          continue;
        }
      } else if (kind === KIND_ARRAY) {
        try {
          child = frame.items[frame.index];
        } catch (error) {
          if (this.fail('throwing-getter', `reading the element threw: ${describeThrown(error)}`)) return;
          deliver(frame, this.leaf);
          continue;
        }
      } else {
        child = frame.items[frame.index];
      }

      const resolution = this.resolve(child, frame, true);
      if (resolution === LEAF) {
        deliver(frame, this.leaf);
      } else if (resolution === SKIP) {
        if (kind === KIND_OBJECT) frame.index++;
        else deliver(frame, 'null');
      } else if (resolution === CONTAINER) {
        if (!this.open()) return;
      } else {
        return;
      }
    }
  }

  /**
   * Pushes `pending` after the circular and depth checks. Returns false when it cannot be opened
   * (`failure` set).
   */
  private open(): boolean {
    const frame = this.pending as Frame;
    this.pending = undefined;
    const frames = this.frames;
    const source = frame.source;
    const depth = frames.length;
    const scan = Math.min(depth, LINEAR_SCAN_LIMIT);
    for (let i = 0; i < scan; i++) {
      if ((frames[i] as Frame).source === source) {
        this.fail('circular', 'the value contains a reference to one of its ancestors');
        return false;
      }
    }
    if (this.ancestors?.has(source)) {
      this.fail('circular', 'the value contains a reference to one of its ancestors');
      return false;
    }
    if (depth >= this.maxDepth) {
      this.fail('too-deep', `the value is nested deeper than ${this.maxDepth} levels`);
      return false;
    }
    if (depth >= LINEAR_SCAN_LIMIT) {
      if (this.ancestors === undefined) this.ancestors = new Set();
      this.ancestors.add(source);
    }
    frames.push(frame);
    return true;
  }

  /**
   * Records a failure at the current position: sets `failure` and returns true (stop).
   */
  private fail(reason: SerializeFailureReason, detail: string): boolean {
    const path = this.currentPath();
    this.failure = {
      ok: false,
      reason,
      path,
      message: `Cannot serialize the value at ${path === '' ? 'the top level' : path}: ${detail}`,
    };
    return true;
  }

  /** JSON pointer of the value being processed: the current child of every open frame. */
  currentPath(): string {
    let path = '';
    for (const frame of this.frames) {
      if (frame.index >= frame.length) continue;
      switch (frame.kind) {
        case KIND_OBJECT:
          path += `/${String(frame.items[frame.index]).replace(POINTER_ESCAPE, escapePointerChar)}`;
          break;
        case KIND_MAP:
          path += `/${frame.index >> 1}/${frame.index & 1}`;
          break;
        default:
          path += `/${frame.index}`;
      }
    }
    return path;
  }

  /**
   * Resolves a value to a leaf text (`leaf`), a container to open (`pending`), SKIP (undefined) or
   * FAIL (after `fail()`).
   */
  private resolve(value: unknown, parent: Frame | undefined, allowToJSON: boolean): Resolution {
    switch (typeof value) {
      case 'string':
        this.leaf = JSON.stringify(value);
        return LEAF;
      case 'number':
        // String(-0) is '0'; finite numbers print exactly as JSON prints them.
        this.leaf = Number.isFinite(value) ? String(value) : 'null';
        return LEAF;
      case 'boolean':
        this.leaf = value ? 'true' : 'false';
        return LEAF;
      case 'bigint':
        this.leaf = `"${value.toString()}"`;
        return LEAF;
      case 'undefined':
        return SKIP;
      case 'function':
        this.fail('function', 'functions cannot be serialized');
        return FAIL;
      case 'symbol':
        this.fail('symbol', 'symbols cannot be serialized');
        return FAIL;
    }
    if (value === null) {
      this.leaf = 'null';
      return LEAF;
    }
    try {
      return this.resolveObject(value as object, parent, allowToJSON);
    } catch (error) {
      // Getters (toJSON, Error name/message) and Proxy traps (getPrototypeOf, ownKeys, …).
      this.fail('throwing-getter', `reading the value threw: ${describeThrown(error)}`);
      return FAIL;
    }
  }

  private resolveObject(value: object, parent: Frame | undefined, allowToJSON: boolean): Resolution {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      if (allowToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return this.applyToJSON(value, parent);
      }
      return this.objectFrame(value);
    }
    if (proto === Array.prototype || Array.isArray(value)) {
      if (allowToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return this.applyToJSON(value, parent);
      }
      return this.arrayFrame(value as unknown[]);
    }
    if (value instanceof Date) {
      let time: number | undefined;
      try {
        time = dateGetTime.call(value);
      } catch {
        time = undefined; // Date.prototype in the chain but not a real Date: treated as a plain object.
      }
      if (time !== undefined) {
        this.leaf = Number.isNaN(time) ? 'null' : `"${dateToISOString.call(value)}"`;
        return LEAF;
      }
    }
    if (allowToJSON && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      return this.applyToJSON(value, parent);
    }
    if (value instanceof Map) {
      const items: unknown[] = [];
      for (const [k, v] of mapEntries.call(value) as IterableIterator<[unknown, unknown]>) items.push(k, v);
      return this.containerFrame(KIND_MAP, value, items);
    }
    if (value instanceof Set) {
      const items = Array.from(setValues.call(value) as IterableIterator<unknown>);
      return this.containerFrame(KIND_SET, value, items);
    }
    if (ArrayBuffer.isView(value)) return this.bytesLeaf(value);
    if (
      value instanceof ArrayBuffer ||
      (SharedArrayBufferCtor !== undefined && value instanceof SharedArrayBufferCtor)
    ) {
      return this.bytesLeaf(new Uint8Array(value));
    }
    if (value instanceof Error) {
      if (this.frames.length >= this.maxDepth) {
        this.fail('too-deep', `the value is nested deeper than ${this.maxDepth} levels`);
        return FAIL;
      }
      const name: unknown = value.name;
      const message: unknown = value.message;
      this.leaf = `{"message":${this.stringText(typeof message === 'string' ? message : '')},"name":${this.stringText(typeof name === 'string' ? name : 'Error')}}`;
      return LEAF;
    }
    if (value instanceof Number) return this.resolve(Number.prototype.valueOf.call(value), parent, false);
    if (value instanceof String) return this.resolve(String.prototype.valueOf.call(value), parent, false);
    if (value instanceof Boolean) return this.resolve(Boolean.prototype.valueOf.call(value), parent, false);
    if (value instanceof BigInt) return this.resolve(BigInt.prototype.valueOf.call(value), parent, false);
    if (value instanceof Symbol) return this.resolve(Symbol.prototype.valueOf.call(value), parent, false);
    return this.objectFrame(value);
  }

  private applyToJSON(value: object, parent: Frame | undefined): Resolution {
    let replaced: unknown;
    try {
      replaced = (value as { toJSON: (key: string) => unknown }).toJSON(toJSONKey(parent));
    } catch (error) {
      this.fail('throwing-toJSON', `toJSON threw: ${describeThrown(error)}`);
      return FAIL;
    }
    // Like JSON.stringify, toJSON is applied once per position, not to its own result.
    return this.resolve(replaced, parent, false);
  }

  private objectFrame(value: object): Resolution {
    const keys = Object.keys(value).sort();
    return this.containerFrame(KIND_OBJECT, value, keys);
  }

  private arrayFrame(value: unknown[]): Resolution {
    const length = value.length;
    // Each element prints at least one character plus a comma: fail before iterating a huge sparse array.
    if (length * 2 + 1 > MAX_STRING_LENGTH) {
      this.fail('too-deep', `the array is too large to serialize (length ${length})`);
      return FAIL;
    }
    return this.containerFrame(KIND_ARRAY, value, value);
  }

  private containerFrame(kind: FrameKind, source: object, items: ArrayLike<unknown>): Resolution {
    this.pending = {
      kind,
      source,
      items,
      length: items.length,
      index: 0,
      out: '',
      parts: kind === KIND_MAP || kind === KIND_SET ? [] : undefined,
    };
    return CONTAINER;
  }

  /** Typed arrays, DataViews and ArrayBuffers: an array of numbers (decimal strings for 64-bit BigInt arrays). */
  private bytesLeaf(view: ArrayBufferView): Resolution {
    if (this.frames.length >= this.maxDepth) {
      this.fail('too-deep', `the value is nested deeper than ${this.maxDepth} levels`);
      return FAIL;
    }
    const elements: ArrayLike<number | bigint> =
      view instanceof DataView
        ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
        : (view as Uint8Array);
    let out = '[';
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i];
      if (i > 0) out += ',';
      out +=
        typeof element === 'bigint'
          ? `"${element.toString()}"`
          : typeof element === 'number' && Number.isFinite(element)
            ? String(element)
            : 'null';
    }
    this.leaf = `${out}]`;
    return LEAF;
  }

  private stringText(value: string): string {
    return JSON.stringify(value);
  }
}

function escapePointerChar(char: string): string {
  return char === '~' ? '~0' : '~1';
}
