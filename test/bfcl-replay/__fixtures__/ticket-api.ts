import {
  arg,
  type BfclApi,
  deepCopy,
  type Method,
  PythonError,
  pyLower,
  required,
  truthy,
} from './bfcl-api.js';

type Ticket = Record<string, unknown>;

/** `initial_config.TicketAPI` (every field optional: the class's defaults fill in). */
export interface TicketScenario {
  readonly ticket_queue?: readonly Ticket[];
  readonly ticket_counter?: number;
  readonly current_user?: string | null;
}

const UPDATABLE: ReadonlySet<string> = new Set(['title', 'description', 'status', 'priority']);

/**
 * BFCL's TicketAPI (ticket_api.py): a queue of support tickets and one logged-in user. Scenario tickets
 * may lack fields (`created_by`); reading one raises `KeyError`, as in Python.
 */
export class TicketApi implements BfclApi {
  readonly #queue: Ticket[];
  #counter: number;
  #currentUser: string | null;

  constructor(scenario: TicketScenario = {}) {
    const state = deepCopy(scenario);
    this.#queue = [...(state.ticket_queue ?? [])];
    this.#counter = state.ticket_counter ?? 1;
    this.#currentUser = state.current_user ?? null;
  }

  readonly methods: Readonly<Record<string, Method>> = {
    create_ticket: (args) => {
      if (!truthy(this.#currentUser))
        return { error: 'User not authenticated. Please log in to create a ticket.' };
      const priority = arg(args, 'priority', 1);
      if (priority < 1 || priority > 5)
        return { error: 'Invalid priority. Priority must be between 1 and 5.' };
      const ticket: Ticket = {
        id: this.#counter,
        title: required(args, 'title'),
        description: arg(args, 'description', ''),
        status: 'Open',
        priority,
        created_by: this.#currentUser,
      };
      this.#queue.push(ticket);
      this.#counter++;
      return ticket;
    },
    get_ticket: (args) => {
      const id = required(args, 'ticket_id');
      return this.#find(id) ?? { error: `Ticket with ID ${id} not found.` };
    },
    close_ticket: (args) => this.#setStatus(required(args, 'ticket_id'), 'Closed', 'closed'),
    resolve_ticket: (args) => {
      const id = required(args, 'ticket_id');
      const ticket = this.#find(id);
      const answer = this.#setStatus(id, 'Resolved', 'resolved');
      if (ticket !== undefined && !('error' in answer)) ticket.resolution = required(args, 'resolution');
      return answer;
    },
    edit_ticket: (args) => {
      const id = required(args, 'ticket_id');
      const ticket = this.#find(id);
      if (ticket === undefined) return { error: `Ticket with ID ${id} not found.` };
      const updates = required<Record<string, unknown>>(args, 'updates');
      const invalid = Object.keys(updates).filter((key) => !UPDATABLE.has(key));
      if (invalid.length > 0) return { error: `Invalid fields for update: ${invalid.join(', ')}` };
      for (const [key, value] of Object.entries(updates)) if (value !== null) ticket[key] = value;
      return { status: `Ticket ${id} has been updated successfully.` };
    },
    ticket_login: (args) => {
      const username = required(args, 'username');
      if (!truthy(username) || !truthy(required(args, 'password'))) return { success: false };
      this.#currentUser = username as string;
      return { success: true };
    },
    ticket_get_login_status: () => ({ login_status: truthy(this.#currentUser) }),
    logout: () => {
      if (!truthy(this.#currentUser)) return { success: false };
      this.#currentUser = null;
      return { success: true };
    },
    get_user_tickets: (args) => {
      if (!truthy(this.#currentUser))
        return [{ error: 'User not authenticated. Please log in to view tickets.' }];
      const status = arg<string | null>(args, 'status', null);
      const mine = this.#queue.filter((ticket) => field(ticket, 'created_by') === this.#currentUser);
      return truthy(status)
        ? mine.filter((ticket) => pyLower(field(ticket, 'status')) === pyLower(status))
        : mine;
    },
  };

  #find(id: unknown): Ticket | undefined {
    return this.#queue.find((ticket) => field(ticket, 'id') === id);
  }

  /** `close_ticket` and `resolve_ticket`: one status, set once. */
  #setStatus(id: unknown, status: string, verb: string): { status: string } | { error: string } {
    const ticket = this.#find(id);
    if (ticket === undefined) return { error: `Ticket with ID ${id} not found.` };
    if (field(ticket, 'status') === status) return { error: `Ticket with ID ${id} is already ${verb}.` };
    ticket.status = status;
    return { status: `Ticket ${id} has been ${verb} successfully.` };
  }
}

/** `ticket[key]`: raises `KeyError` when the ticket has no such field. */
function field(ticket: Ticket, key: string): unknown {
  if (!Object.hasOwn(ticket, key)) throw new PythonError('KeyError', `'${key}'`);
  return ticket[key];
}
