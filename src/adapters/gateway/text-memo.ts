/**
 * Values kept under text keys, `maxChars` of keys in all, the oldest forgotten first: what the gateway
 * remembers across requests (each request of a turn brings every earlier result again). A key longer than
 * the bound is never kept.
 */
export class TextMemo<V> {
  readonly #kept = new Map<string, V>();
  #chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): V | undefined {
    return this.#kept.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxChars || this.#kept.has(key)) return;
    this.#kept.set(key, value);
    this.#chars += key.length;
    for (const old of this.#kept.keys()) {
      if (this.#chars <= this.maxChars) break;
      this.#kept.delete(old);
      this.#chars -= old.length;
    }
  }
}
