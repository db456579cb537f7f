// Who we are logged in as and which strings are secret: stored passwords (per game host), the registration code,
// the session id, configured API keys and the login token in use. Fills `login` passwords from the store and captures
// the one `register` hands back, so the model never holds one. An account logged in by API key has no password: it
// logs back in by key (key-login.ts).
import type { CredentialStore, Logger, ToolResult } from '../shared/index.js';
import type { CredentialKeys } from './credential-key.js';
import { HIDDEN, hideTokens, readSessionId } from './filled-args.js';
import {
  findRegisteredPassword,
  normalizedText,
  PLACEHOLDERS,
  redactData,
  redactText,
  revealsSecret,
} from './secrets.js';

// Enough outgoing text to catch a password sent in a few pieces, small enough to check on every call.
const RECENT_CHARS = 2000;

export interface Account {
  username: string;
  /** Empty for an account logged in by API key. */
  password: string;
  /** Logged in with the API key (login_token): it logs back in the same way, never with a password. */
  byKey?: true;
}

export class Keyring {
  private readonly extra = new Set<string>();
  /** The account this connection last logged in (or registered) as; kept to log back in after a reconnect. */
  account: Account | undefined;
  loggedIn = false;
  /** From the last login or register greeting; filled into calls that ask for `session_id`. */
  sessionId: string | undefined;
  /** The login token being redeemed and the player it is for (single-use: only the latest is kept, as a secret). */
  private keyLogin: { username: string; token: string } | undefined;
  /** The server answered session_required: send the session id on every call, whatever the schemas declare. */
  sessionIdAlways = false;
  private recent = '';

  constructor(
    private readonly options: {
      store: CredentialStore;
      keys: CredentialKeys;
      username?: string;
      secrets?: string[];
      /** Told when the store fails to keep a password (one line, never the password). */
      logger?: Logger;
    },
  ) {
    for (const secret of options.secrets ?? []) if (secret) this.extra.add(secret);
  }

  /** A password given by the person (SKIPPER_GAME_PASSWORD): used first for that account, and stored only once a
   * login with it succeeds — a mistyped one must not replace (or become) the stored password. */
  private seeded: Account | undefined;

  seed(username: string, password: string): void {
    this.seeded = { username, password };
    this.extra.add(password);
  }

  /** A stored account by name: under the host, else under an old full-URL key (then filed under the host too). */
  private async lookup(username: string): Promise<Account | undefined> {
    if (this.seeded && this.seeded.username.toLowerCase() === username.toLowerCase()) return { ...this.seeded };
    const { store, keys } = this.options;
    const found = await store.get(keys.key, username);
    if (found) return { username: found.username, password: found.password };
    for (const legacy of keys.legacy) {
      const old = await store.get(legacy, username);
      if (old) return this.migrate(old);
    }
    return undefined;
  }

  private async latest(): Promise<Account | undefined> {
    if (this.seeded) return { ...this.seeded };
    const { store, keys } = this.options;
    const found = await store.latest(keys.key);
    if (found) return { username: found.username, password: found.password };
    for (const legacy of keys.legacy) {
      const old = await store.latest(legacy);
      if (old) return this.migrate(old);
    }
    return undefined;
  }

  /** An account found under an old key: filed under the host too (a failed write only leaves it where it was). */
  private async migrate(old: Account): Promise<Account> {
    await this.stored(old.username, old.password);
    return { username: old.username, password: old.password };
  }

  /** Writes a password to the store; resolves once it is durable. A store that fails (a database gone away) is
   * logged — one line, never the password — and the account stays in memory, so this connection can still log
   * back in with it. Never rejects. */
  private async stored(username: string, password: string): Promise<void> {
    try {
      await this.options.store.put(this.options.keys.key, username, password);
    } catch (error) {
      this.options.logger?.warn(
        { username, error: withoutSecrets(error, [...this.secrets(), password]) },
        'could not store the game password; it is kept in memory for this connection only',
      );
    }
  }

  /** The stored account to log in with before the first turn: the configured username, else the latest. */
  known(): Promise<Account | undefined> {
    const { username } = this.options;
    return username ? this.lookup(username) : this.latest();
  }

  /** The last secrets() answer and what it was made from: the same set while nothing changed. */
  private lastSecrets:
    { set: ReadonlySet<string>; passwords: readonly string[]; extra: number; own: string } | undefined;

  /**
   * Every secret we know now; the store's passwords are asked each time since another connection may have added one.
   * The same set object comes back while nothing changed, so what is worked out per set (patterns) is reused.
   */
  secrets(): ReadonlySet<string> {
    // The store lists every password it holds (any account, any game) in memory: that covers the stored accounts,
    // without a per-call look-up.
    const list = this.options.store.passwordList();
    const own = [this.account?.password, this.seeded?.password, this.sessionId, this.keyLogin?.token].join('\u0000');
    const last = this.lastSecrets;
    if (last && last.passwords === list && last.extra === this.extra.size && last.own === own) return last.set;
    const set = this.secretsAfresh(list);
    this.lastSecrets = { set, passwords: list, extra: this.extra.size, own };
    return set;
  }

  private secretsAfresh(passwords: readonly string[]): Set<string> {
    const out = new Set(this.extra);
    if (this.account) out.add(this.account.password);
    if (this.seeded) out.add(this.seeded.password);
    if (this.sessionId) out.add(this.sessionId);
    if (this.keyLogin) out.add(this.keyLogin.token);
    for (const password of passwords) out.add(password);
    return out;
  }

  /** Checks outgoing arguments; what passes joins a short tail of recent outgoing text (for split secrets). */
  reveals(args: unknown): boolean {
    if (revealsSecret(args, this.secrets(), this.recent)) return true;
    this.recent = `${this.recent}${normalizedText(args)}`.slice(-RECENT_CHARS);
    return false;
  }

  /** `login` arguments with the stored password filled in when the model sent none or a placeholder. Rejects when the
   * store cannot be read (a database gone away): nothing is sent then. */
  async fillLogin(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    try {
      return await this.filledLogin(args);
    } catch (error) {
      this.options.logger?.warn(
        { error: withoutSecrets(error, [...this.secrets()]) },
        'could not read the stored game passwords to log in',
      );
      throw error;
    }
  }

  private async filledLogin(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const given = typeof args.username === 'string' ? args.username.trim() : '';
    const username = given || this.account?.username || (await this.known())?.username || '';
    const password = typeof args.password === 'string' ? args.password : '';
    if (!PLACEHOLDERS.has(password.trim().toLowerCase())) return { ...args, username };
    // Game usernames ignore case: "Nova" logs in as the stored "nova" rather than sending the placeholder.
    const same = (a: string | undefined): boolean => a !== undefined && a.toLowerCase() === username.toLowerCase();
    let stored = (await this.lookup(username))?.password;
    if (stored === undefined && same(this.account?.username)) stored = this.account?.password;
    if (stored === undefined) {
      const latest = await this.known();
      if (same(latest?.username)) stored = latest?.password;
    }
    return { ...args, username, password: stored ?? password };
  }

  /** After a successful login: remember the account at once, and store it (the password may be one a person typed).
   * Resolves once the password is durable — or, when the store failed, once that is logged (the account is kept in
   * memory either way, to log back in with). Never rejects. */
  async loggedInAs(username: string, password: string): Promise<void> {
    this.account = { username, password };
    this.loggedIn = true;
    if (username && password && !PLACEHOLDERS.has(password.toLowerCase())) await this.stored(username, password);
  }

  /** A login_token call is about to redeem `token` for `username`: the token is a secret from now on. */
  expectKeyLogin(username: string, token: string): void {
    this.keyLogin = { username, token };
  }

  /** After a successful login_token: logged in as the key's player, who logs back in by key (nothing is stored).
   * Returns the username, or undefined when no key login was expected (a login_token Skipper did not make). */
  loggedInByKey(): string | undefined {
    const username = this.keyLogin?.username;
    if (username === undefined) return undefined;
    this.account = { username, password: '', byKey: true };
    this.loggedIn = true;
    return username;
  }

  /** A login or register greeting: remember its session id (never as a password). */
  noteGreeting(text: string): void {
    const sessionId = readSessionId(text);
    if (sessionId) this.sessionId = sessionId;
  }

  /** After a successful register: capture the labelled password; resolves to the username when one was captured,
   * once its password is durable (see loggedInAs: a store that failed is logged, the account kept in memory). */
  async captureRegistration(args: Record<string, unknown>, result: ToolResult): Promise<string | undefined> {
    const password = findRegisteredPassword(result.text);
    if (!password || password === this.sessionId) return undefined;
    this.extra.add(password);
    const greeted = /^\s*username:\s*(\S+)/im.exec(result.text)?.[1];
    const data = result.data as { player?: { username?: unknown } } | undefined;
    const candidates = [args.username, data?.player?.username, greeted];
    const username = candidates.find((value): value is string => typeof value === 'string' && value.length > 0);
    if (!username) return undefined;
    await this.loggedInAs(username, password);
    return username;
  }

  private compiledSessionId: { id: string; pattern: RegExp } | undefined;

  /** The session id as a pattern, compiled once per id (every result is redacted with it). */
  private sessionIdPattern(id: string): RegExp {
    if (this.compiledSessionId?.id !== id) this.compiledSessionId = { id, pattern: new RegExp(id, 'gi') };
    return this.compiledSessionId.pattern;
  }

  /** What the model may see: the session id [hidden], every other known secret [saved], in text and data. Login and
   * register answers also hide any other 64-hex token, whatever its label. */
  redact(result: ToolResult, options: { greeting?: boolean } = {}): ToolResult {
    const secrets = this.secrets();
    const hide = (text: string): string => {
      // The session id is hex only, so it is safe inside a pattern.
      const hidden = this.sessionId ? text.replace(this.sessionIdPattern(this.sessionId), HIDDEN) : text;
      const saved = redactText(hidden, secrets);
      return options.greeting ? hideTokens(saved) : saved;
    };
    const out: ToolResult = { ...result, text: hide(result.text) };
    if (result.data !== undefined) out.data = redactData(result.data, secrets);
    return out;
  }
}

/** An error's message for the log, with every known secret hidden; withheld when a (short) one would still show. */
function withoutSecrets(error: unknown, secrets: readonly string[]): string {
  const redacted = redactText(error instanceof Error ? error.message : String(error), secrets);
  return secrets.some((secret) => secret.length > 0 && redacted.includes(secret)) ? '(message withheld)' : redacted;
}
