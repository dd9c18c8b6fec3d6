/**
 * Values kept under text keys, `maxChars` in all, the oldest forgotten first: what the gateway remembers
 * across requests (each request of a turn brings every earlier result again). Each entry counts its key's
 * length and `overhead`: what its value and the entry itself hold besides the key, as characters, so many
 * short keys stay bounded too. An entry over the bound alone is never kept.
 */
export class TextMemo<V> {
  readonly #kept = new Map<string, V>();
  #chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly overhead = 0,
  ) {}

  get(key: string): V | undefined {
    return this.#kept.get(key);
  }

  set(key: string, value: V): void {
    if (key.length + this.overhead > this.maxChars || this.#kept.has(key)) return;
    this.#kept.set(key, value);
    this.#chars += key.length + this.overhead;
    for (const old of this.#kept.keys()) {
      if (this.#chars <= this.maxChars) break;
      this.#kept.delete(old);
      this.#chars -= old.length + this.overhead;
    }
  }
}
