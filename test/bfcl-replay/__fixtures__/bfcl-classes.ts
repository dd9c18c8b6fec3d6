import type { BfclApi, Method } from './bfcl-api.js';
import { GorillaFileSystem } from './gorilla-file-system.js';
import { MathApi } from './math-api.js';
import { MessageApi } from './message-api.js';
import { TicketApi } from './ticket-api.js';
import { TwitterApi } from './twitter-api.js';

/** One implemented BFCL class: its func-doc file, how to load it, and the methods that only read. */
export interface BfclClass {
  /** The file under `multi_turn_func_doc/` (BFCL's `CLASS_FILE_PATH_MAPPING`, see the corpus README). */
  readonly docFile: string;
  readonly create: (config: unknown) => BfclApi;
  /**
   * The methods whose doc says they only look (list, show, count, search, get, compute), declared
   * `effect: 'read'` in the declared run. `cd` is left out: it changes the working directory that every
   * later call reads. So are `echo` (it writes a file when given one) and the logins.
   */
  readonly reads: ReadonlySet<string>;
}

/**
 * The classes this replay implements, by BFCL's class name: together they make up every task in which
 * the file system takes part (50 of the 200). The others (TradingBot, TravelAPI, VehicleControlAPI) are
 * not implemented, and their tasks are left out.
 */
export const BFCL_CLASSES: Readonly<Record<string, BfclClass>> = {
  GorillaFileSystem: {
    docFile: 'gorilla_file_system.json',
    create: (config) => new GorillaFileSystem(config as ConstructorParameters<typeof GorillaFileSystem>[0]),
    reads: new Set(['pwd', 'ls', 'cat', 'find', 'wc', 'sort', 'grep', 'du', 'tail', 'diff']),
  },
  TwitterAPI: {
    docFile: 'posting_api.json',
    create: (config) => new TwitterApi(config as ConstructorParameters<typeof TwitterApi>[0]),
    reads: new Set([
      'posting_get_login_status',
      'list_all_following',
      'get_tweet',
      'get_user_tweets',
      'search_tweets',
      'get_tweet_comments',
      'get_user_stats',
    ]),
  },
  MathAPI: {
    docFile: 'math_api.json',
    create: () => new MathApi(),
    reads: new Set([
      'logarithm',
      'mean',
      'standard_deviation',
      'si_unit_conversion',
      'imperial_si_conversion',
      'add',
      'subtract',
      'multiply',
      'divide',
      'power',
      'square_root',
      'absolute_value',
      'round_number',
      'percentage',
      'min_value',
      'max_value',
      'sum_values',
    ]),
  },
  MessageAPI: {
    docFile: 'message_api.json',
    create: (config) => new MessageApi(config as ConstructorParameters<typeof MessageApi>[0]),
    reads: new Set([
      'list_users',
      'get_user_id',
      'message_get_login_status',
      'view_messages_sent',
      'search_messages',
      'get_message_stats',
    ]),
  },
  TicketAPI: {
    docFile: 'ticket_api.json',
    create: (config) => new TicketApi(config as ConstructorParameters<typeof TicketApi>[0]),
    reads: new Set(['get_ticket', 'ticket_get_login_status', 'get_user_tickets']),
  },
};

/**
 * Every public method of the given classes, each class loaded from its part of `initial_config`, as
 * BFCL's executor does for one task (its method names are unique across the classes).
 */
export function loadBfclMethods(
  classes: readonly string[],
  initialConfig: Readonly<Record<string, unknown>>,
): Readonly<Record<string, Method>> {
  const methods: Record<string, Method> = {};
  for (const className of classes) {
    const known = BFCL_CLASSES[className];
    if (known === undefined) throw new Error(`${className} is not implemented`);
    Object.assign(methods, known.create(initialConfig[className] ?? {}).methods);
  }
  return methods;
}
