import type { GuardStore } from '../session/guard-store.js';

/** An in-memory store: one process, nothing persisted. Values are copied in and out as JSON. */
export class MemoryStore implements GuardStore {
  readonly #entries = new Map<string, string>();

  async load(sessionId: string): Promise<unknown> {
    const text = this.#entries.get(sessionId);
    return text === undefined ? undefined : JSON.parse(text);
  }

  async save(sessionId: string, state: unknown): Promise<void> {
    this.#entries.set(sessionId, JSON.stringify(state));
  }

  get size(): number {
    return this.#entries.size;
  }
}
