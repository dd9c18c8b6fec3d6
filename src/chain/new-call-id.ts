import { randomUUID } from 'node:crypto';

/** An id for a call that came without a usable one: unique across requests and processes. */
export function newCallId(): string {
  return `tw_${randomUUID()}`;
}
