// What a successful login, logout or register changes for the connection: the keyring's account and session id,
// how this server spells login (to log back in the same way), the captured password, and the `logged-in` event.
import type { ConnectionEvent, GameOp, Logger, ToolResult } from '../shared/index.js';
import type { Keyring } from './keyring.js';
import type { LoginSpelling } from './login-spelling.js';

export interface AccountContext {
  keyring: Keyring;
  spelling: LoginSpelling;
  logger: Logger;
  emit(event: ConnectionEvent): void;
}

/** Records a successful account call; true when the connection is now logged in as someone new (login generation). */
export function noteAccount(
  context: AccountContext,
  call: { operation: GameOp | undefined; name: string; args: Record<string, unknown>; result: ToolResult },
): boolean {
  const { keyring, spelling, logger, emit } = context;
  const { operation, name, args, result } = call;
  if (operation === 'login') {
    spelling.learn('login', name, args);
    keyring.noteGreeting(result.text);
    keyring.loggedInAs(String(args.username ?? ''), String(args.password ?? ''));
    emit({ kind: 'logged-in', username: String(args.username ?? '') });
    return true;
  }
  if (operation === 'logout') {
    keyring.loggedIn = false; // on purpose: no automatic re-login
    return false;
  }
  if (operation === 'register') {
    spelling.learn('register', name, args);
    keyring.noteGreeting(result.text);
    const username = keyring.captureRegistration(args, result);
    if (!username) return false;
    logger.info({ username }, 'registered; password captured and stored');
    emit({ kind: 'logged-in', username });
    return true;
  }
  return false;
}
