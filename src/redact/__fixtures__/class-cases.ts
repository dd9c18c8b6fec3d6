import type { HostileCategory, HostileErrorMessage } from './hostile-error-messages.js';

/**
 * A maker of hostile messages for one class met on unseen text: each case's name starts with the class,
 * so a leak reported by the corpus test names its class.
 */
export function classCases(
  category: HostileCategory,
  className: string,
): (name: string, message: string, secrets: readonly string[]) => HostileErrorMessage {
  return (name, message, secrets) => ({ category, name: `${className}: ${name}`, message, secrets });
}
