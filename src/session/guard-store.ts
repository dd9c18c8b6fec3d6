/**
 * Where loop-guard state lives between requests of one conversation. The core ships a memory store
 * (`MemoryStore` in `toolwarden/testing`); shared stores (Redis) implement the same port.
 */
export interface GuardStore {
  load(sessionId: string): Promise<unknown>;
  save(sessionId: string, state: unknown): Promise<void>;
}
