// Rule 14 for exports: every known secret (game passwords, API keys) becomes `[redacted]`, wherever it hides — text,
// reasoning, raw tool-call arguments (where it may appear JSON-escaped) and structured data — and so does any 64-hex
// token in a `register` result, where games hand out passwords.
import { escapeRegExp, setField, type Message } from '../shared/index.js';

export const redactedMarker = '[redacted]';

/** Secrets shorter than this are ignored: redacting "a" or "42" would shred the transcript and protect nothing. */
export const minimumSecretLength = 4;

const hexToken = /\b[0-9a-fA-F]{64}\b/g;

export type Redactor = (text: string) => string;

export function createRedactor(secrets: readonly string[]): Redactor {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < minimumSecretLength) continue;
    needles.add(secret);
    // The same secret inside JSON text (tool-call arguments) has its quotes and backslashes escaped.
    needles.add(JSON.stringify(secret).slice(1, -1));
  }
  if (needles.size === 0) return (text) => text;
  // Longest first so a secret that contains another is replaced whole. One pattern, not one search per needle: a
  // fleet's redactor holds every captain's password and runs over every line written.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(ordered.map(escapeRegExp).join('|'), 'g');
  return (text) => {
    pattern.lastIndex = 0;
    // Text without a secret comes back as the very same string (callers cache by it).
    return pattern.test(text) ? text.replace(pattern, redactedMarker) : text;
  };
}

/** Applies `redact` to every string (keys included) of a JSON value; returns a new value. */
export function redactValue(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setField(copy, redact(key), redactValue(item, redact));
    return copy;
  }
  return value;
}

function redactHex(text: string): string {
  return text.replace(hexToken, redactedMarker);
}

/** A redacted copy of a message; the original is not changed. */
export function redactMessage(message: Message, redact: Redactor): Message {
  const isRegister = message.role === 'tool' && message.toolName === 'register';
  const clean: Redactor = isRegister ? (text) => redactHex(redact(text)) : redact;
  const copy: Message = { ...message, content: clean(message.content) };
  if (message.reasoning !== undefined) copy.reasoning = clean(message.reasoning);
  if (message.toolCalls !== undefined) {
    copy.toolCalls = message.toolCalls.map((call) => ({ ...call, arguments: clean(call.arguments) }));
  }
  if (message.data !== undefined) copy.data = redactValue(message.data, clean);
  return copy;
}

/** `scheme://user:password@host/…` without its `user:password@`; anything that is not such a URL is returned as is. */
export function stripUrlCredentials(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
}

/** The `user:password` and the password written into a URL (`scheme://user:password@host`), raw, decoded and as a
 * Basic authorization header carries them (the user name alone is no secret); none when absent. */
export function urlCredentials(text: string | undefined): string[] {
  const match = text === undefined ? null : /^[a-z][a-z0-9+.-]*:\/\/([^/@\s]*)@/i.exec(text);
  if (!match?.[1]) return [];
  const userinfo = match[1];
  const out = new Set<string>([userinfo]);
  const colon = userinfo.indexOf(':');
  const password = colon < 0 ? '' : userinfo.slice(colon + 1);
  out.add(password);
  try {
    out.add(decodeURIComponent(password));
    // The same credentials as sent, in a Basic authorization header.
    out.add(Buffer.from(decodeURIComponent(userinfo)).toString('base64'));
  } catch {
    // A malformed escape: the raw password is already listed.
  }
  return [...out].filter((part) => part.length > 0);
}

/** A session row's input as both engines store it: credentials in URLs stripped, known secrets in `extra` redacted. */
export function cleanSessionInput<T extends { game?: string; extra?: Record<string, unknown> }>(
  input: T,
  redact: Redactor | undefined,
): T {
  const out: T = { ...input };
  if (typeof out.game === 'string') out.game = stripUrlCredentials(out.game);
  if (out.extra !== undefined) {
    const extra: Record<string, unknown> = { ...out.extra };
    if (typeof extra.baseUrl === 'string') extra.baseUrl = stripUrlCredentials(extra.baseUrl);
    out.extra = (redact ? redactValue(extra, redact) : extra) as Record<string, unknown>;
  }
  return out;
}
