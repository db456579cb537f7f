// Lean tool descriptions: the schemas travel with every request, so the prose past what a call needs is left out —
// each action line of a grouped tool keeps its signature and first sentence, a trailing cost tag ("[mutation: one
// per tick, returns when it resolves]") keeps its kind ("[mutation]"; the system prompt says what each kind costs).
// Names, fields, types, enums and `required` are untouched, so every call valid before stays valid; lines that are
// neither an action nor tagged (a game's own prose, a note about a saved field) are kept as they are.
import { clip, type ToolSpec } from '../shared/index.js';

const ACTION_LINE = /^(\s*- [\w.-]+\([^)]*\):\s*)(.*)$/;
const TRAILING_TAG = /\s*\[([^\]:]+)(?::[^\]]*)?\]\s*$/;

export function firstSentence(text: string, max: number): string {
  const sentence = /^[\s\S]*?[.!?](\s|$)/.exec(text)?.[0]?.trim() ?? text.trim();
  return clip(sentence, max);
}

function shorten(prose: string): string {
  const tag = TRAILING_TAG.exec(prose);
  const body = tag ? prose.slice(0, tag.index) : prose;
  const short = firstSentence(body, Number.MAX_SAFE_INTEGER);
  return tag ? `${short} [${(tag[1] ?? '').trim()}]` : short;
}

export function leanDescription(description: string): string {
  return description
    .split('\n')
    .map((line) => {
      const action = ACTION_LINE.exec(line);
      if (action) return `${action[1] ?? ''}${shorten(action[2] ?? '')}`;
      return TRAILING_TAG.test(line) ? shorten(line) : line;
    })
    .join('\n');
}

/** A copy with a lean description (see above); the input schema is the same object, never changed. */
export function leanSpec(spec: ToolSpec): ToolSpec {
  const description = leanDescription(spec.description);
  return description === spec.description ? spec : { ...spec, description };
}
