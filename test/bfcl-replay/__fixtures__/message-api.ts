import { type BfclApi, deepCopy, type Method, pyLower, required, truthy } from './bfcl-api.js';

/** `initial_config.MessageAPI` (every field optional: the class's defaults fill in). */
export interface MessageScenario {
  readonly random_seed?: number;
  readonly generated_ids?: readonly number[];
  readonly user_count?: number;
  readonly user_map?: Readonly<Record<string, string>>;
  /** One-entry objects `{ receiver id: message }` (some scenarios give the message as a list). */
  readonly inbox?: readonly Readonly<Record<string, unknown>>[];
  readonly current_user?: string | null;
}

const DEFAULT_USERS: Readonly<Record<string, string>> = {
  Alice: 'USR001',
  Bob: 'USR002',
  Catherine: 'USR003',
  Daniel: 'USR004',
};

const DEFAULT_INBOX: readonly Readonly<Record<string, unknown>>[] = [
  { USR002: 'My name is Alice. I want to connect.' },
  { USR003: 'Could you upload the file?' },
  { USR004: 'Could you upload the file?' },
];

/**
 * BFCL's MessageAPI (message_api.py): users, one logged-in user, and an inbox of `{ receiver: message }`
 * entries. Message ids come from a generator seeded by `random_seed` (default 200191) over 10000-99999,
 * never repeated, as in Python; the generator is not Python's Mersenne Twister, so the ids themselves
 * differ from BFCL's.
 */
export class MessageApi implements BfclApi {
  readonly #generated: Set<number>;
  #userCount: number;
  readonly #users: Map<string, string>;
  readonly #inbox: [string, unknown][];
  #currentUser: string | null;
  readonly #random: () => number;

  constructor(scenario: MessageScenario = {}) {
    const state = deepCopy(scenario);
    this.#random = seededRandom(state.random_seed ?? 200191);
    this.#generated = new Set(state.generated_ids ?? []);
    this.#userCount = state.user_count ?? 4;
    this.#users = new Map(Object.entries(state.user_map ?? DEFAULT_USERS));
    this.#inbox = (state.inbox ?? DEFAULT_INBOX).map((entry) => {
      const first = Object.entries(entry)[0];
      if (first === undefined) throw new TypeError('an inbox entry without a receiver');
      return first;
    });
    this.#currentUser = state.current_user ?? null;
  }

  readonly methods: Readonly<Record<string, Method>> = {
    list_users: () => ({ user_list: [...this.#users.keys()] }),
    get_user_id: (args) => {
      const user = required<string>(args, 'user');
      const id = this.#users.get(user);
      return id === undefined ? { error: `User '${user}' not found in the workspace.` } : { user_id: id };
    },
    message_login: (args) => {
      const id = required<string>(args, 'user_id');
      if (![...this.#users.values()].includes(id))
        return { login_status: false, message: `User ID '${id}' not found.` };
      this.#currentUser = id;
      return { login_status: true, message: `User '${id}' logged in successfully.` };
    },
    message_get_login_status: () => ({ login_status: truthy(this.#currentUser) }),
    send_message: (args) => {
      if (!truthy(this.#currentUser)) return { error: 'No user is currently logged in.' };
      const receiver = required<string>(args, 'receiver_id');
      if (![...this.#users.values()].includes(receiver))
        return { error: `Receiver ID '${receiver}' not found.` };
      // The Python class returns `_generate_id()`'s dict as the message id.
      const messageId = { new_id: this.#newId() };
      this.#inbox.push([receiver, required(args, 'message')]);
      return {
        sent_status: true,
        message_id: messageId,
        message: `Message sent to '${receiver}' successfully.`,
      };
    },
    delete_message: (args) => {
      if (!truthy(this.#currentUser)) return { error: 'No user is currently logged in.' };
      const receiver = required<string>(args, 'receiver_id');
      for (let index = this.#inbox.length - 1; index >= 0; index--) {
        if (this.#inbox[index]?.[0] !== receiver) continue;
        this.#inbox.splice(index, 1);
        return {
          deleted_status: true,
          receiver_id: receiver,
          message: `Receiver ${receiver}'s latest message deleted successfully.`,
        };
      }
      return { error: `Receiver ID ${receiver} not found.` };
    },
    view_messages_sent: () => {
      if (!truthy(this.#currentUser)) return { error: 'No user is currently logged in.' };
      const sent: Record<string, unknown[]> = {};
      for (const [receiver, message] of this.#inbox) {
        if (!Object.hasOwn(sent, receiver))
          Object.defineProperty(sent, receiver, { value: [], enumerable: true, writable: true });
        sent[receiver]?.push(message);
      }
      return { messages: sent };
    },
    add_contact: (args) => {
      const name = required<string>(args, 'user_name');
      if (this.#users.has(name)) return { error: `User name '${name}' already exists.` };
      this.#userCount++;
      const id = `USR${String(this.#userCount).padStart(3, '0')}`;
      if ([...this.#users.values()].includes(id)) return { error: `User ID '${id}' already exists.` };
      this.#users.set(name, id);
      return { added_status: true, user_id: id, message: `Contact '${name}' added successfully.` };
    },
    search_messages: (args) => {
      if (!truthy(this.#currentUser)) return { error: 'No user is currently logged in.' };
      const keyword = pyLower(required(args, 'keyword'));
      return {
        results: this.#inbox
          .filter(([, message]) => pyLower(message).includes(keyword))
          .map(([receiver, message]) => ({ receiver_id: receiver, message })),
      };
    },
    get_message_stats: () => {
      if (!truthy(this.#currentUser)) return { error: 'No user is currently logged in.' };
      return {
        stats: {
          received_count: this.#inbox.length,
          total_contacts: new Set(this.#inbox.map(([receiver]) => receiver)).size,
        },
      };
    },
  };

  #newId(): number {
    for (;;) {
      const id = 10000 + Math.floor(this.#random() * 90000);
      if (this.#generated.has(id)) continue;
      this.#generated.add(id);
      return id;
    }
  }
}

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
