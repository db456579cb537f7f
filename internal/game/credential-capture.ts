// Credential capture, the step the retry loop runs on every answer it returns: what a successful login, logout or
// register changed — the keyring's account, the password register handed back (stored, never shown), the session
// id, how this server spells login (to log back in the same way) — and the `logged-in` event. It also counts
// logins, so a re-login can tell that another call already logged back in since its own call failed.
import type { ConnectionEvent, Logger, ToolResult } from '../shared/index.js';
import type { GameOp } from '../spacemolt/index.js';
import type { Keyring } from './keyring.js';
import type { LoginSpelling } from './login-spelling.js';

export interface AccountContext {
  keyring: Keyring;
  spelling: LoginSpelling;
  logger: Logger;
  emit(event: ConnectionEvent): void;
}

export interface AnsweredCall {
  operation: GameOp | undefined;
  name: string;
  args: Record<string, unknown>;
  result: ToolResult;
}

export class CredentialCapture {
  /** Bumped by every successful login or register: a re-login compares it with the count before its call. */
  generation = 0;

  constructor(private readonly context: AccountContext) {}

  /** Called with each answer the loop returns, before it goes back; failed answers change nothing. Resolves once a
   * captured password is durable (a store that failed is logged, the account kept in memory). Never rejects. */
  async capture(call: AnsweredCall): Promise<void> {
    if (!call.result.isError && (await noteAccount(this.context, call))) this.generation += 1;
  }
}

/** Records a successful account call; true when the connection is now logged in as someone new (login generation).
 * Resolves once the password it captured is stored (or its storing failed and was logged). */
export async function noteAccount(context: AccountContext, call: AnsweredCall): Promise<boolean> {
  const { keyring, spelling, logger, emit } = context;
  const { operation, name, args, result } = call;
  if (operation === 'login') {
    spelling.learn('login', name, args);
    keyring.noteGreeting(result.text);
    await keyring.loggedInAs(String(args.username ?? ''), String(args.password ?? ''));
    emit({ type: 'logged-in', username: String(args.username ?? '') });
    return true;
  }
  if (operation === 'login_token') {
    keyring.noteGreeting(result.text);
    const username = keyring.loggedInByKey();
    if (username === undefined) return false;
    emit({ type: 'logged-in', username });
    return true;
  }
  if (operation === 'logout') {
    keyring.loggedIn = false; // on purpose: no automatic re-login
    return false;
  }
  if (operation === 'register') {
    spelling.learn('register', name, args);
    keyring.noteGreeting(result.text);
    const username = await keyring.captureRegistration(args, result);
    if (!username) return false;
    logger.info({ username }, 'registered; password captured');
    emit({ type: 'logged-in', username });
    return true;
  }
  return false;
}
