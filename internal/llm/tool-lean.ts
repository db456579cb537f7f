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
  const lines = description.split('\n').map((line) => {
    const action = ACTION_LINE.exec(line);
    if (action) return `${action[1] ?? ''}${shorten(action[2] ?? '')}`;
    return TRAILING_TAG.test(line) ? shorten(line) : line;
  });
  return groupedByKind(lines).join('\n');
}

/**
 * Action lines that all end in their kind ("[query]", "[mutation]") listed under one heading per run of a kind
 * ("query actions:") instead of the tag on every line: the same facts in ~3 fewer tokens an action. Left as they are
 * when any action line has no tag (the kind would be lost for it).
 */
function groupedByKind(lines: readonly string[]): string[] {
  const actions = lines.filter((line) => ACTION_LINE.test(line));
  if (actions.length < 2 || !actions.every((line) => TRAILING_TAG.test(line))) return [...lines];
  const out: string[] = [];
  let run: string | undefined;
  for (const line of lines) {
    const tag = ACTION_LINE.test(line) ? TRAILING_TAG.exec(line) : null;
    if (!tag) {
      run = undefined;
      out.push(line);
      continue;
    }
    const kind = (tag[1] ?? '').trim();
    if (kind !== run) out.push(`${kind} actions:`);
    run = kind;
    out.push(line.slice(0, tag.index));
  }
  return out;
}

/**
 * A grouped tool's argument descriptions made lean: the `action` enum's description is left out when the tool's
 * description lists every value as an action line (it only said "one of the actions listed"), and the same text said
 * for several actions ("sell: How many units; buy: How many units") is said once for them ("sell, buy: How many
 * units"). Types, enums, bounds and `required` are untouched.
 */
function leanSchema(spec: ToolSpec): ToolSpec['inputSchema'] {
  const properties = spec.inputSchema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!spec.actions || !properties) return spec.inputSchema;
  const listed = new Set(spec.description.split('\n').flatMap((line) => /^\s*- ([\w.-]+)\(/.exec(line)?.[1] ?? []));
  let changed = false;
  const lean: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const values = Array.isArray(property.enum) ? property.enum : undefined;
    const description = typeof property.description === 'string' ? property.description : undefined;
    let next = property;
    if (name === 'action' && values && description && values.every((value) => listed.has(String(value)))) {
      const { description: _said, ...rest } = property;
      next = rest;
    } else if (description) {
      const merged = mergeSaidTwice(description);
      if (merged !== description) next = { ...property, description: merged };
    }
    if (next !== property) changed = true;
    lean[name] = next;
  }
  return changed ? { ...spec.inputSchema, properties: lean } : spec.inputSchema;
}

/** "a: X; b: X; c: Y" → "a, b: X; c: Y" (only when every part is `action: text`). */
function mergeSaidTwice(description: string): string {
  const parts = description.split('; ').map((part) => /^([\w.-]+): ([\s\S]+)$/.exec(part));
  if (parts.length < 2 || parts.some((part) => !part)) return description;
  const byText = new Map<string, string[]>();
  for (const part of parts as RegExpExecArray[]) {
    const names = byText.get(part[2] as string) ?? [];
    names.push(part[1] as string);
    byText.set(part[2] as string, names);
  }
  if (byText.size === parts.length) return description;
  return [...byText].map(([text, names]) => `${names.join(', ')}: ${text}`).join('; ');
}

/** A copy with a lean description and argument descriptions (see above); the listed spec is never changed. */
export function leanSpec(spec: ToolSpec): ToolSpec {
  const description = leanDescription(spec.description);
  const inputSchema = leanSchema(spec);
  return description === spec.description && inputSchema === spec.inputSchema
    ? spec
    : { ...spec, description, inputSchema };
}
