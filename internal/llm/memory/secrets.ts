// Secret checks for memory: nothing that contains a known secret (game password, API key: case-insensitive
// substring) or anything shaped like a 256-bit token (64 hex digits, a common game password format) is stored or shown.

const HEX64 = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/i;
/** Secrets shorter than this are ignored: a 2-letter "password" would match half the dictionary. */
const MIN_SECRET_LENGTH = 4;

export function containsSecret(text: string, secrets: readonly string[]): boolean {
  if (HEX64.test(text)) return true;
  const lower = text.toLowerCase();
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && lower.includes(secret.toLowerCase())) return true;
  }
  return false;
}

/** Replaces secrets with [redacted] (for text written by code, where refusing would lose the whole record). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(new RegExp(HEX64.source, 'gi'), '[redacted]');
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'gi'), '[redacted]');
  }
  return out;
}
