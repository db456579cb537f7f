// The web API's field names: snake_case, like every --json output (shared/vocabulary.ts). The bridge and the store
// keep their TypeScript names; every JSON body and event-stream message is converted here, at the boundary, once.
import { snakeCaseKeys, type SnakeCased } from '../shared/index.js';

/** `body` with snake_case keys at every depth; a system's `pois`, the galaxy's `names` and a card's `errors_by_code`
 * stay keyed by the game's ids and codes. */
export function webJson<T>(body: T): SnakeCased<T> {
  return snakeCaseKeys(body, { keepInside: ['pois', 'names', 'errors_by_code'] });
}
