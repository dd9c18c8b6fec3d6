/** Exports things, none of them a tool. */
export const answer = 42;
export function helper(): string {
  return 'not a tool';
}
export const config = { name: 'orders', retries: 3 };
