// A named account the game refuses ends the program: with --username (and SKIPPER_GAME_PASSWORD or a stored password)
// the person asked to play that captain, and playing on logged out would only have the model register someone else.
// No account and no password is the ordinary "not logged in yet" start, and stays so.
import { FatalError } from '../shared/index.js';
import type { CredentialTable } from '../store/index.js';

export interface AccountLookups {
  /** What the game connection reads its accounts through. */
  credentials: CredentialTable;
  /** The named account, when a password for it was found (given in the environment or stored). */
  found(): string | undefined;
}

/** Watches the connection's look-ups of the named account: did it have a password to log in with? */
export function watchAccountLookups(
  credentials: CredentialTable,
  username: string | undefined,
  options: { fresh?: boolean } = {},
): AccountLookups {
  let found: string | undefined;
  /** A fresh session sees only the accounts it stored itself as "the latest". */
  const ownGames = new Set<string>();
  const watched: CredentialTable = {
    get: async (gameUrl, name) => {
      const account = await credentials.get(gameUrl, name);
      if (account && username !== undefined && name.toLowerCase() === username.toLowerCase()) found = account.username;
      return account;
    },
    latest: async (gameUrl) => (options.fresh && !ownGames.has(gameUrl) ? undefined : credentials.latest(gameUrl)),
    put: async (gameUrl, name, password) => {
      ownGames.add(gameUrl);
      return credentials.put(gameUrl, name, password);
    },
    remove: (gameUrl, name) => credentials.remove(gameUrl, name),
    passwordList: () => credentials.passwordList(),
    refresh: () => credentials.refresh(),
  };
  return { credentials: watched, found: () => found };
}

export function loginRefusedError(username: string, fromEnvironment: boolean): FatalError {
  const source = fromEnvironment ? 'the password in SKIPPER_GAME_PASSWORD' : 'the stored password';
  return new FatalError(
    'login_refused',
    `the game refused the login of "${username}" with ${source}. Check the username and SKIPPER_GAME_PASSWORD ` +
      '(usernames and passwords as the game knows them), or leave out --username to let the captain register a new player.',
  );
}
