// An in-memory CredentialStore (game URL + username -> password, with the latest account per game) for tests that
// run the real game layer: the MCP-server fake's, minimolt's (sim-game.ts) and the integration tests'. Asynchronous
// like the store's credentials table: a put is "durable" when it resolves; passwordList() is the same frozen list
// while no password was added or changed.
import type { CredentialStore } from '../../internal/shared/index.js';

export type MemoryCredentials = CredentialStore & {
  /** `${gameUrl} ${username}` -> password, as stored. */
  store: Map<string, string>;
};

export function memoryCredentials(): MemoryCredentials {
  const store = new Map<string, string>();
  const order: string[] = [];
  let list: readonly string[] | undefined;
  return {
    store,
    get: (gameUrl, username) => {
      const password = store.get(`${gameUrl} ${username}`);
      return Promise.resolve(password === undefined ? undefined : { username, password });
    },
    latest: (gameUrl) => {
      for (let index = order.length - 1; index >= 0; index -= 1) {
        const key = order[index] ?? '';
        if (key.startsWith(`${gameUrl} `)) {
          return Promise.resolve({ username: key.slice(gameUrl.length + 1), password: store.get(key) ?? '' });
        }
      }
      return Promise.resolve(undefined);
    },
    put: (gameUrl, username, password) => {
      const key = `${gameUrl} ${username}`;
      if (store.get(key) !== password) list = undefined;
      store.set(key, password);
      const at = order.indexOf(key);
      if (at >= 0) order.splice(at, 1);
      order.push(key);
      return Promise.resolve();
    },
    passwordList: () => (list ??= Object.freeze([...new Set(store.values())])),
  };
}
