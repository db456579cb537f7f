// Where a game's accounts are filed in the credential store. An account belongs to the game's host, not to one of
// its endpoints: SpaceMolt's /mcp and /mcp/v2 (any preset) are the same accounts. Older versions filed accounts by
// the full URL; those keys are still searched, and an account found there is filed again under the host.
import type { GameTarget } from './target.js';
import { targetUrl } from './target.js';

export interface CredentialKeys {
  /** Where accounts are stored from now on. */
  key: string;
  /** Older keys searched when the new one has nothing (full URLs as earlier versions wrote them). */
  legacy: string[];
}

export function credentialKeys(target: GameTarget): CredentialKeys {
  const full = targetUrl(target);
  if (target.kind !== 'http') return { key: full, legacy: [] };
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return { key: full, legacy: [] };
  }
  const key = url.origin;
  const bare = `${url.origin}${url.pathname}`;
  const legacy = [full, bare, `${url.origin}/mcp`, `${url.origin}/mcp/v2`].filter(
    (value, index, all) => value !== key && all.indexOf(value) === index,
  );
  return { key, legacy };
}
