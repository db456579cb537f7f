// Serialising requests for the request log without paying for it every round. A context is ~100 messages that are
// fresh copies each round (rule 3) but almost all equal to ones sent before: a message equal, key for key and in the
// same key order, to one already serialised reuses that JSON text (the same string object, which the store then
// finds by identity-cheap Map lookup instead of hashing it again). Only new messages are stringified. A copy the
// context builder made of a message it keeps (originalOf) is found by that original at once, with no comparing.
import { originalOf } from '../llm/index.js';
import type { Message, ToolSpec } from '../shared/index.js';

/** Messages remembered (by id), least recently sent dropped first: more than any context holds. */
const CACHE_LIMIT = 400;
/** Renderings kept per message id: whole, shortened or stubbed… */
const RENDERINGS_PER_ID = 3;

interface Rendering {
  message: Message;
  json: string;
}

/** JSON-equal: same keys in the same order and JSON-equal values (so JSON.stringify gives the same text). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) {
    const key = left[index] as string;
    if (key !== right[index]) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

export class RequestSerializer {
  /** JSON text by the original a context copy was made from (see originalOf): one stringify per original. */
  private readonly byOriginal = new WeakMap<Message, string>();
  private readonly renderings = new Map<string, Rendering[]>();
  private lastTools: { tools: readonly ToolSpec[]; json: string } | undefined;

  /** Each message's JSON text, and the tool list's, as `JSON.stringify` would write them. */
  serialize(messages: readonly Message[], tools: readonly ToolSpec[]): { messages: string[]; tools: string } {
    return { messages: messages.map((message) => this.message(message)), tools: this.tools(tools) };
  }

  private message(message: Message): string {
    const original = originalOf(message);
    if (original) {
      let json = this.byOriginal.get(original);
      if (json === undefined) {
        json = JSON.stringify(message);
        this.byOriginal.set(original, json);
      }
      return json;
    }
    const list = this.renderings.get(message.id) ?? [];
    // Map order is recency: a message sent again moves to the end, the oldest go first.
    this.renderings.delete(message.id);
    this.renderings.set(message.id, list);
    const found = list.find((rendering) => sameJson(rendering.message, message));
    if (found) return found.json;
    const json = JSON.stringify(message);
    // The copy sent is kept only as a reference to compare with: context copies are never changed once built.
    list.unshift({ message, json });
    if (list.length > RENDERINGS_PER_ID) list.pop();
    for (const oldest of this.renderings.keys()) {
      if (this.renderings.size <= CACHE_LIMIT) break;
      this.renderings.delete(oldest);
    }
    return json;
  }

  private tools(tools: readonly ToolSpec[]): string {
    const last = this.lastTools;
    // A session's tool list is fitted once: each turn offers the very same spec objects again.
    if (last && last.tools.length === tools.length && last.tools.every((spec, index) => spec === tools[index]))
      return last.json;
    const json = JSON.stringify(tools);
    this.lastTools = { tools: [...tools], json };
    return json;
  }
}
