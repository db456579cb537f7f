// Keeping the game session, for the connection's retry loop: it carries out the `reconnect` and `relogin`
// decisions. A lost session reopens the link (one reconnect shared by every call that lost it) and logs back in;
// being displaced logs back in once for all calls displaced together, backs off, and stops when another client
// keeps taking the player over. Both answer "go on" (undefined) or the error result the call ends with.
import {
  AbortedError,
  SkipperError,
  raceAbort,
  type ConnectionEvent,
  type Logger,
  type ToolResult,
} from '../shared/index.js';
import type { CredentialCapture } from './credential-capture.js';
import { Displacements } from './displacement.js';
import type { Account, Keyring } from './keyring.js';
import type { GameLink } from './link.js';
import type { GameClock, resolveRetry } from './options.js';
import { describeError, errorResult } from './result.js';

export interface SessionKeeperOptions {
  link: GameLink;
  keyring: Keyring;
  /** Its login generation tells a re-login that another call already logged back in. */
  capture: CredentialCapture;
  retry: ReturnType<typeof resolveRetry>;
  clock: GameClock;
  /** Aborted when the connection closes: ends the re-login backoff. */
  lifetime: AbortSignal;
  logger: Logger;
  emit: (event: ConnectionEvent) => void;
  /** A login after a reconnect or a displacement worked. */
  onRelogin: () => void;
  /** One login on the link as it is, without reconnecting (it runs inside the reconnect). */
  loginOnce: (account: Account) => Promise<ToolResult>;
  /** A login through the connection's whole call pipeline. */
  login: (account: Account) => Promise<ToolResult>;
}

export class SessionKeeper {
  private readonly displacements: Displacements;
  private relogging: Promise<ToolResult> | undefined;

  constructor(private readonly options: SessionKeeperOptions) {
    const { displacedWindowMs: windowMs, displacedMax: max, backoffMs, maxBackoffMs } = options.retry;
    this.displacements = new Displacements({ windowMs, max, backoffMs, maxBackoffMs });
  }

  /** Reconnects (unless another call already did) and logs back in; returns an error result when it cannot. */
  async reconnect(
    reason: string,
    failedGeneration: number,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult | undefined> {
    try {
      await this.reconnectOrThrow(reason, failedGeneration, signal);
      return undefined;
    } catch (error) {
      if (error instanceof AbortedError) throw error;
      if (error instanceof SkipperError && error.code === 'relogin_refused')
        return errorResult('not_authenticated', `not_authenticated: ${error.message}`);
      return errorResult('disconnected', `disconnected: ${describeError(error)}`);
    }
  }

  async reconnectOrThrow(reason: string, failedGeneration: number, signal: AbortSignal | undefined): Promise<void> {
    const { link, keyring } = this.options;
    await link.reconnect({
      reason,
      failedGeneration,
      ...(signal ? { signal } : {}),
      afterConnect: async () => {
        const account = keyring.account;
        if (!account || !keyring.loggedIn) return;
        const result = await this.options.loginOnce(account);
        if (result.isError) {
          // Connected, but the account is refused (a wiped world, a reset password): reconnecting again won't help.
          keyring.loggedIn = false;
          throw new SkipperError(
            'relogin_refused',
            `reconnected, but logging back in as ${account.username} failed: ${result.text}`,
          );
        }
        this.options.onRelogin();
      },
    });
  }

  /** Logs back in after session_replaced / not_authenticated, unless another client keeps displacing us. */
  async relogin(
    result: ToolResult,
    failedLoginGeneration: number,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult | undefined> {
    const { keyring, capture, clock, logger } = this.options;
    const account = keyring.account;
    if (!account) return result;
    if (capture.generation !== failedLoginGeneration) return undefined;
    // Parallel calls displaced together share one re-login and count as one displacement.
    if (this.relogging) return reloginOutcome(account.username, await raceAbort(this.relogging, signal));
    // Counts both codes: some servers log a displaced session out, so it then reads not_authenticated.
    if (!this.displacements.admit(clock.now())) {
      // Stop claiming to be logged in, so later not_authenticated results reach the model instead of re-login.
      keyring.loggedIn = false;
      logger.warn(
        { username: account.username, count: this.displacements.count },
        'displaced repeatedly; not logging back in',
      );
      this.options.emit({ type: 'disconnected', reason: 'session replaced by another login' });
      return this.displacements.refusal(account.username);
    }
    this.relogging ??= (async (): Promise<ToolResult> => {
      const wait = this.displacements.backoffMs();
      if (wait > 0) await clock.sleep(wait, this.options.lifetime);
      const login = await this.options.login(account);
      if (!login.isError) this.options.onRelogin();
      return login;
    })().finally(() => {
      this.relogging = undefined;
    });
    return reloginOutcome(account.username, await raceAbort(this.relogging, signal));
  }
}

function reloginOutcome(username: string, login: ToolResult): ToolResult | undefined {
  if (!login.isError) return undefined;
  return errorResult(login.code ?? 'not_authenticated', `could not log back in as ${username}: ${login.text}`);
}
