// Arguments Skipper fills in by code, never the model: the registration code (a secret from the player's
// dashboard) and the session id the login greeting hands back. The model is told so in the tool's schema, sees
// neither value, and whatever it put there is replaced.
import type { JsonSchema, ToolResult, ToolSpec } from '../shared/index.js';

export const REGISTRATION_CODE_MISSING =
  'Error: registration_code_missing: no registration code is set: pass --registration-code CODE or set ' +
  'SKIPPER_REGISTRATION_CODE (get one from your SpaceMolt dashboard)';

export const HIDDEN = '[hidden]';

const FILLED_NOTE: Record<string, string> = {
  registration_code: 'Filled in by Skipper from its saved registration code: leave it out (or send "[saved]").',
  session_id: 'Filled in by Skipper from the last login: leave it out.',
};

function hasParam(spec: ToolSpec | undefined, name: string): boolean {
  return spec?.inputSchema.properties?.[name] !== undefined;
}

/** The spec as the model sees it: parameters Skipper fills say so (the schema object is copied, not changed). */
export function describeFilledParams(spec: ToolSpec): ToolSpec {
  const properties = spec.inputSchema.properties;
  const filled = Object.keys(FILLED_NOTE).filter((name) => properties?.[name] !== undefined);
  if (!properties || filled.length === 0) return spec;
  const copy: Record<string, unknown> = { ...properties };
  for (const name of filled) {
    const original = properties[name];
    const base = original && typeof original === 'object' ? (original as Record<string, unknown>) : {};
    copy[name] = { ...base, description: FILLED_NOTE[name] };
  }
  const inputSchema: JsonSchema = { ...spec.inputSchema, properties: copy };
  const note = filled.map((name) => `${name} is filled in by Skipper.`).join(' ');
  return { ...spec, inputSchema, description: spec.description ? `${spec.description}\n(${note})` : `(${note})` };
}

/**
 * A register call with the configured code in `registration_code`, or the local refusal when the game needs one
 * and none is set (no call reaches the server: it counts failed registrations against the IP).
 */
export function fillRegistration(
  args: Record<string, unknown>,
  options: { spec: ToolSpec | undefined; code: string | undefined; required: boolean },
): { args: Record<string, unknown> } | { refused: ToolResult } {
  const { code, required, spec } = options;
  if (code && hasParam(spec, 'registration_code')) return { args: { ...args, registration_code: code } };
  if (!code && required) {
    return { refused: { text: REGISTRATION_CODE_MISSING, isError: true, code: 'registration_code_missing' } };
  }
  // No code and the game does not insist: whatever the model put there ("[saved]") must not reach the server.
  const { registration_code: _dropped, ...rest } = args;
  return { args: hasParam(spec, 'registration_code') ? rest : args };
}

/** A call with the session id from the last greeting, when its schema asks for one (or the server asked for it:
 * `always`, after a session_required answer) and we have one. */
export function fillSessionId(
  args: Record<string, unknown>,
  spec: ToolSpec | undefined,
  sessionId: string | undefined,
  options: { always?: boolean } = {},
): Record<string, unknown> {
  if (!sessionId || (!options.always && !hasParam(spec, 'session_id'))) return args;
  return { ...args, session_id: sessionId };
}

const HEX64 = /\b[0-9a-f]{64}\b/gi;

// A session id: a UUID, or a run of hex digits (the real ones are most likely 32; minimolt's were 64).
const SESSION_TOKEN = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,128})(?![0-9a-z-])/i;
const SESSION_LABEL = /\bsession(?:[ _-]?id)?\W{0,4}/gi;

/** The session id of a login or register greeting: a hex or UUID token right after a `Session ID:` / `session_id`
 * label, in text or JSON (`"session_id": "…"`). A bare token is never taken for it. */
export function readSessionId(text: string): string | undefined {
  for (const label of text.matchAll(SESSION_LABEL)) {
    const token = SESSION_TOKEN.exec(text.slice(label.index + label[0].length, label.index + label[0].length + 140));
    if (token?.index === 0) return token[1];
  }
  return undefined;
}

/** Login and register answers: every 64-hex token the model could copy is hidden, whatever its label. */
export function hideTokens(text: string): string {
  return text.replace(HEX64, HIDDEN);
}
