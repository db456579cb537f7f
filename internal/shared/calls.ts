// Reading a call as any game's: its kind (query, free action, mutation) from the tool's spec the game layer
// classified, and its arguments as the model sent them. Nothing here knows a game's tools by name.
import type { CallKind } from './types.js';

/** The kind of one call: for a grouped tool its action decides; an action the table does not know is a mutation
 * (the safe guess: serial, long timeout). */
export function callKind(
  spec: { readOnly: boolean; kind?: CallKind; actions?: Record<string, CallKind> } | undefined,
  args: Record<string, unknown>,
): CallKind {
  if (!spec) return 'mutation';
  if (spec.actions) {
    const action = typeof args.action === 'string' ? args.action : '';
    return spec.actions[action] ?? 'mutation';
  }
  return spec.kind ?? (spec.readOnly ? 'query' : 'mutation');
}

/** A call's arguments as the model sent them (JSON text), read leniently for classifying and counting: anything
 * that is not a JSON object reads as no arguments (the dispatcher is the one that refuses it). */
export function argumentsOf(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
