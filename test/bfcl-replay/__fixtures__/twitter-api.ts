import { arg, type BfclApi, deepCopy, type Method, pyLower, required } from './bfcl-api.js';

interface Tweet {
  id: number;
  username: string;
  content: string;
  tags: string[];
  mentions: string[];
}

/** `initial_config.TwitterAPI` (every field optional: the class's defaults fill in). */
export interface TwitterScenario {
  readonly username?: string;
  readonly password?: string;
  readonly authenticated?: boolean;
  readonly tweets?: Readonly<Record<string, Tweet>>;
  readonly comments?: Readonly<Record<string, unknown>>;
  readonly retweets?: Readonly<Record<string, number[]>>;
  readonly following_list?: readonly string[];
  readonly tweet_counter?: number;
}

/**
 * BFCL's TwitterAPI (posting_api.py): tweets, comments, retweets and follows of one user, who must
 * authenticate before writing. Tweets are kept by integer id (the scenario's string keys converted, as
 * the class does); comments keep the scenario's string keys, so a comment loaded there is not found by
 * `get_tweet_comments(tweet_id=1)`, as in Python.
 */
export class TwitterApi implements BfclApi {
  readonly #username: string;
  readonly #password: string;
  #authenticated: boolean;
  readonly #tweets: Map<number, Tweet>;
  readonly #comments: Map<string | number, { username: string; content: string }[]>;
  readonly #retweets: Map<string, number[]>;
  readonly #following: string[];
  #counter: number;
  /**
   * `post_tweet`'s default `tags=[]` and `mentions=[]`: one list each, shared by every tweet posted
   * without them (a Python mutable default), which `mention` then extends for all of them.
   */
  readonly #defaultTags: string[] = [];
  readonly #defaultMentions: string[] = [];

  constructor(scenario: TwitterScenario = {}) {
    const state = deepCopy(scenario);
    this.#username = state.username ?? 'john';
    this.#password = state.password ?? 'john123';
    this.#authenticated = state.authenticated ?? false;
    this.#tweets = new Map(Object.entries(state.tweets ?? {}).map(([key, tweet]) => [Number(key), tweet]));
    this.#comments = new Map(
      Object.entries(state.comments ?? {}).map(([key, list]) => [
        key,
        list as { username: string; content: string }[],
      ]),
    );
    this.#retweets = new Map(Object.entries(state.retweets ?? {}));
    this.#following = [...(state.following_list ?? ['alice', 'bob'])];
    this.#counter = state.tweet_counter ?? 0;
  }

  readonly methods: Readonly<Record<string, Method>> = {
    authenticate_twitter: (args) => {
      if (required(args, 'username') !== this.#username || required(args, 'password') !== this.#password)
        return { authentication_status: false };
      this.#authenticated = true;
      return { authentication_status: true };
    },
    posting_get_login_status: () => ({ login_status: this.#authenticated }),
    post_tweet: (args) => {
      if (!this.#authenticated)
        return { error: 'User not authenticated. Please authenticate before posting.' };
      const tweet: Tweet = {
        id: this.#counter,
        username: this.#username,
        content: required(args, 'content'),
        tags: arg(args, 'tags', this.#defaultTags),
        mentions: arg(args, 'mentions', this.#defaultMentions),
      };
      this.#tweets.set(this.#counter, tweet);
      this.#counter++;
      return tweet;
    },
    retweet: (args) => {
      if (!this.#authenticated)
        return { error: 'User not authenticated. Please authenticate before retweeting.' };
      const id = required<number>(args, 'tweet_id');
      if (!this.#tweets.has(id)) return { error: `Tweet with ID ${id} not found.` };
      const mine = this.#retweets.get(this.#username) ?? [];
      this.#retweets.set(this.#username, mine);
      if (mine.includes(id)) return { retweet_status: 'Already retweeted' };
      mine.push(id);
      return { retweet_status: 'Successfully retweeted' };
    },
    comment: (args) => {
      if (!this.#authenticated)
        return { error: 'User not authenticated. Please authenticate before commenting.' };
      const id = required<number>(args, 'tweet_id');
      if (!this.#tweets.has(id)) return { error: `Tweet with ID ${id} not found.` };
      const list = this.#comments.get(id) ?? [];
      this.#comments.set(id, list);
      list.push({ username: this.#username, content: required(args, 'comment_content') });
      return { comment_status: 'Comment added successfully' };
    },
    mention: (args) => {
      const id = required<number>(args, 'tweet_id');
      const tweet = this.#tweets.get(id);
      if (tweet === undefined) return { error: `Tweet with ID ${id} not found.` };
      tweet.mentions.push(...required<string[]>(args, 'mentioned_usernames'));
      return { mention_status: 'Users mentioned successfully' };
    },
    follow_user: (args) => {
      if (!this.#authenticated)
        return { error: 'User not authenticated. Please authenticate before following.' };
      const name = required<string>(args, 'username_to_follow');
      if (this.#following.includes(name)) return { follow_status: false };
      this.#following.push(name);
      return { follow_status: true };
    },
    list_all_following: () =>
      this.#authenticated
        ? { following_list: this.#following }
        : { error: 'User not authenticated. Please authenticate before listing following.' },
    unfollow_user: (args) => {
      if (!this.#authenticated)
        return { error: 'User not authenticated. Please authenticate before unfollowing.' };
      const name = required<string>(args, 'username_to_unfollow');
      const at = this.#following.indexOf(name);
      if (at < 0) return { unfollow_status: false };
      this.#following.splice(at, 1);
      return { unfollow_status: true };
    },
    get_tweet: (args) => {
      const id = required<number>(args, 'tweet_id');
      return this.#tweets.get(id) ?? { error: `Tweet with ID ${id} not found.` };
    },
    get_user_tweets: (args) => {
      const name = required<string>(args, 'username');
      return [...this.#tweets.values()].filter((tweet) => tweet.username === name);
    },
    search_tweets: (args) => {
      const keyword = pyLower(required(args, 'keyword'));
      return [...this.#tweets.values()].filter(
        (tweet) =>
          pyLower(tweet.content).includes(keyword) || tweet.tags.map((tag) => pyLower(tag)).includes(keyword),
      );
    },
    get_tweet_comments: (args) => {
      const id = required<number>(args, 'tweet_id');
      if (!this.#tweets.has(id)) return { error: `Tweet with ID ${id} not found.` };
      return this.#comments.get(id) ?? [];
    },
    get_user_stats: (args) => {
      const name = required<string>(args, 'username');
      return {
        tweet_count: [...this.#tweets.values()].filter((tweet) => tweet.username === name).length,
        following_count: name === this.#username ? this.#following.length : 0,
        retweet_count: this.#retweets.get(name)?.length ?? 0,
      };
    },
  };
}
