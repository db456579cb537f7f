// The secret guard: finds stored passwords and API keys in tool arguments (also spaced out, reversed, split,
// base64- or hex-encoded), hides them in results, and captures the password `register` hands back.
import { escapeRegExp, setField } from '../shared/index.js';

export const SAVED = '[saved]';
/** Passwords a model may put in `login` meaning "use the stored one". */
export const PLACEHOLDERS = new Set(['', '[saved]', 'saved', '***', '****', '*****', '<saved>', '[redacted]']);

// Fragments shorter than this would refuse innocent text; a 16-char window of a 64-hex password is 64 bits.
const WINDOW = 16;
const MIN_SECRET = 4;

function normalize(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function collectStrings(value: unknown, out: string[], depth = 0): void {
  if (depth > 20) return;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      collectStrings(item, out, depth + 1);
    }
  }
}

/** Decodings a model might use to smuggle a secret past a plain substring check. */
function variants(text: string): string[] {
  const out = [text];
  for (const token of text.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) {
    try {
      out.push(Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
    } catch {
      // not base64
    }
  }
  for (const token of text.match(/(?:[0-9a-f]{2}){8,}/gi) ?? []) {
    out.push(Buffer.from(token, 'hex').toString('latin1'));
  }
  return out;
}

function windows(secret: string): string[] {
  const normal = normalize(secret);
  if (normal.length <= WINDOW) return [normal];
  const out: string[] = [];
  for (let start = 0; start + WINDOW <= normal.length; start += 1) out.push(normal.slice(start, start + WINDOW));
  return out;
}

/** The letters and digits of every string in `args`: what `recent` is built from. */
export function normalizedText(args: unknown): string {
  const strings: string[] = [];
  collectStrings(args, strings);
  return normalize(strings.join(''));
}

/**
 * True when any string in `args` (deep, keys included) reveals one of `secrets`. `recent` is the normalized text of
 * earlier outgoing calls, so a secret sent in pieces over several calls is caught once two pieces meet.
 */
export function revealsSecret(args: unknown, secrets: Iterable<string>, recent = ''): boolean {
  const { list, long } = checkedSecrets(secrets);
  if (list.length === 0) return false;
  const strings: string[] = [];
  collectStrings(args, strings);
  const joined = strings.join('\n');
  const lower = joined.toLowerCase();
  const decoded = variants(joined).map(normalize);
  // The text is read one way only: a secret sent backwards shows as its own pieces and windows reversed, which are
  // worked out once per secret (reading the reversed text as well doubled the work of every call).
  const fresh = decoded.join('\n');
  const squashed = `${recent}${fresh}`;
  let pieces: Set<number> | undefined;
  let touched: Set<string> | undefined;
  return list.some((secret) => {
    const forms = formsOf(secret);
    if (lower.includes(forms.lower)) return true;
    if (forms.normal.length < 8) return false;
    // A long secret's 16-char window found in the text is covered by that window's own pieces, so the coverage
    // check alone gives the same answer: only shorter secrets need the window search.
    if (forms.normal.length < 2 * WINDOW) return windowsOf(forms).some((part) => squashed.includes(part));
    // Only a secret with a piece in this call can be newly covered: `recent` itself passed when it was sent. The
    // call's pieces (with the few characters before it, for a piece that spans the two) name those secrets, so the
    // long tail of recent text is read only for them.
    touched ??= secretsWithPieces(`${recent.slice(-(PIECE - 1))}${fresh}`, long);
    if (!touched.has(forms.normal)) return false;
    pieces ??= textPieces(squashed);
    return covered(forms.normal, pieces) >= WINDOW;
  });
}

interface CheckedSecrets {
  /** The secrets long enough to check. */
  list: string[];
  /** The normalized forms of those long enough for the piece check (their pieces indexed). */
  long: ReadonlySet<string>;
  /** How they are hidden, made on first use (null: nothing to redact). */
  redaction?: Redaction | null;
}

/** Per set of secrets (a keyring hands out the same set while nothing changed): worked out once, not once per call
 * (how they are redacted too). */
const checkedBySet = new WeakMap<object, CheckedSecrets>();

function checkedSecrets(secrets: Iterable<string>): CheckedSecrets {
  const cached = checkedBySet.get(secrets);
  if (cached) return cached;
  const list = [...secrets].filter((secret) => secret.length >= MIN_SECRET);
  const long = new Set<string>();
  for (const secret of list) {
    const { normal } = formsOf(secret);
    if (normal.length >= 2 * WINDOW) long.add(normal);
  }
  const checked: CheckedSecrets = { list, long };
  // Only a set is kept: an array may be changed by its owner after the call.
  if (secrets instanceof Set) checkedBySet.set(secrets, checked);
  return checked;
}

/** Secrets whose derived forms are kept (a fleet of 50 holds 50 passwords and a few keys). */
const SECRET_PIECES_KEPT = 1000;

interface SecretForms {
  lower: string;
  normal: string;
  /** The normalized secret's windows, forwards and reversed (shorter secrets only; made on first use). */
  windows?: string[];
}

/** Each secret's lower-case and normalized forms, worked out once: every outgoing call is checked against them all. */
const secretForms = new Map<string, SecretForms>();

function formsOf(secret: string): SecretForms {
  let forms = secretForms.get(secret);
  if (!forms) {
    forms = { lower: secret.toLowerCase(), normal: normalize(secret) };
    if (secretForms.size >= SECRET_PIECES_KEPT) secretForms.clear();
    secretForms.set(secret, forms);
  }
  return forms;
}

function windowsOf(forms: SecretForms): string[] {
  forms.windows ??= windows(forms.normal).flatMap((part) => [part, [...part].reverse().join('')]);
  return forms.windows;
}

// Pieces this short say little alone; a secret counts as revealed once pieces of it cover WINDOW characters.
const PIECE = 6;
/** Letters and digits as 1..36 (0 = anything else, which ends a run): a piece is then a number below 37^6. */
const RADIX = 37;
const PIECE_SPAN = RADIX ** PIECE;

function charValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 47;
  if (code >= 97 && code <= 122) return code - 86;
  return 0;
}

/** Calls `visit` with a number for each PIECE-long run of letters and digits in `text` (lower case), and its start. */
function forEachPiece(text: string, visit: (piece: number, start: number) => void): void {
  let piece = 0;
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    const value = charValue(text.charCodeAt(index));
    if (value === 0) {
      piece = 0;
      run = 0;
      continue;
    }
    piece = (piece * RADIX + value) % PIECE_SPAN;
    run += 1;
    if (run >= PIECE) visit(piece, index - PIECE + 1);
  }
}

/** Each secret's pieces, reversed as well, and where they start: worked out once, the same secrets are checked on
 * every call. */
const secretPieces = new Map<string, Array<[piece: number, reversed: number, start: number]>>();
/** Which secrets (normalized) have a piece, either way round: filled as secretPieces is, cleared with it. */
const pieceOwners = new Map<number, string[]>();

/** A piece's characters in the opposite order (its base-RADIX digits reversed). */
function reversePiece(piece: number): number {
  let rest = piece;
  let out = 0;
  for (let digit = 0; digit < PIECE; digit += 1) {
    out = out * RADIX + (rest % RADIX);
    rest = Math.floor(rest / RADIX);
  }
  return out;
}

function piecesOf(secret: string): Array<[number, number, number]> {
  let pieces = secretPieces.get(secret);
  if (!pieces) {
    const found: Array<[number, number, number]> = [];
    forEachPiece(secret, (piece, start) => found.push([piece, reversePiece(piece), start]));
    pieces = found;
    if (secretPieces.size >= SECRET_PIECES_KEPT) {
      secretPieces.clear();
      pieceOwners.clear();
    }
    secretPieces.set(secret, pieces);
    for (const [piece, reversed] of pieces) for (const key of [piece, reversed]) ownedBy(key, secret);
  }
  return pieces;
}

function ownedBy(piece: number, secret: string): void {
  const owners = pieceOwners.get(piece);
  if (!owners) pieceOwners.set(piece, [secret]);
  else if (!owners.includes(secret)) owners.push(secret);
}

/** The secrets of `wanted` (normalized, long) that have a piece in `text`, either way round. */
function secretsWithPieces(text: string, wanted: ReadonlySet<string>): Set<string> {
  // Indexes each one's pieces the first time (and again after the index was cleared for size).
  for (const normal of wanted) piecesOf(normal);
  const found = new Set<string>();
  forEachPiece(text, (piece) => {
    for (const owner of pieceOwners.get(piece) ?? []) if (wanted.has(owner)) found.add(owner);
  });
  return found;
}

/** Every piece of `text`, read in one pass (a call is checked against every secret in reach: 50 in a fleet). */
function textPieces(text: string): Set<number> {
  const found = new Set<number>();
  forEachPiece(text, (piece) => found.add(piece));
  return found;
}

/**
 * How many characters of `secret` (normalized) are covered by its pieces found in the text, either way round (catches
 * a secret sent in parts, or backwards): the text's pieces are read once per call, each secret's once per process.
 */
function covered(secret: string, inText: Set<number>): number {
  const marks = new Uint8Array(secret.length);
  for (const [piece, reversed, start] of piecesOf(secret))
    if (inText.has(piece) || inText.has(reversed)) marks.fill(1, start, start + PIECE);
  return marks.reduce((sum, mark) => sum + mark, 0);
}

/** One redaction per distinct list of secrets, longest first (a secret inside another is replaced whole). A fleet
 * redacts every result against every captain's password: compiled once, not once per secret per string. */
const redactions = new Map<string, Redaction | null>();
const REDACTIONS_KEPT = 100;

/**
 * How one list of secrets is hidden. `pattern` finds them ignoring case. When every secret is ASCII, the text
 * lower-cased is probed first, matching case, and `pattern` runs only on a hit: the probe misses nothing `pattern`
 * finds, because a case-insensitive match of an ASCII secret is ASCII text, which lower-casing keeps whole. A fleet
 * redacts every result and every string of its data against all its captains' passwords, and almost none holds one.
 *
 * The probe looks for the secrets made of hex digits alone (SpaceMolt's passwords and session ids: 64 of them) in
 * the text's runs of hex digits, with one pattern per shortest length and a set of the secrets: nothing is compiled
 * for a list. Each captain's list is its own (its session id is in it) and changes whenever a captain of the fleet
 * registers: with a pattern of every password compiled for each list, a profile of 50 captains found the probe at
 * 0.47 s in the first 110 s of the run (the logins) against 0.11 s in the 150 s after. Other secrets (API keys,
 * passwords people chose) are probed with a pattern of their own, compiled per list.
 */
interface Redaction {
  /** The secrets, longest first. */
  list: readonly string[];
  /** Made when first needed: compiling it costs ~2 ms for a fleet's fifty passwords, and behind the probe it is
   * rarely needed at all (the list changes as each captain of a fleet registers, and each captain has its own). */
  pattern?: RegExp;
  /** Whether every secret is ASCII: the probe is to be trusted (otherwise `pattern` always runs). */
  ascii: boolean;
  /** The hex-only secrets, lower-cased, by their runs (see holdsHexSecret). */
  hex: HexSecrets | undefined;
  /** The other secrets, lower-cased, as one case-sensitive pattern. */
  probe: RegExp | undefined;
  /** The shortest secret's length: a shorter string cannot hold one. */
  shortest: number;
}

interface HexSecrets {
  set: ReadonlySet<string>;
  /** Their distinct lengths, shortest first. */
  lengths: readonly number[];
  /** Runs of hex digits at least as long as the shortest (shared by every list with that shortest length). */
  runs: RegExp;
}

const HEX_ONLY = /^[0-9a-f]+$/i;
const hexRunPatterns = new Map<number, RegExp>();

function hexSecretsOf(secrets: readonly string[]): HexSecrets {
  const set = new Set(secrets.map((secret) => secret.toLowerCase()));
  const lengths = [...new Set([...set].map((secret) => secret.length))].sort((a, b) => a - b);
  const shortest = lengths[0] as number;
  let runs = hexRunPatterns.get(shortest);
  if (!runs) {
    runs = new RegExp(`[0-9a-f]{${shortest},}`, 'g');
    hexRunPatterns.set(shortest, runs);
  }
  return { set, lengths, runs };
}

/** Whether lower-cased text holds one of the hex-only secrets: each lies whole inside a run of hex digits. */
function holdsHexSecret(lower: string, hex: HexSecrets): boolean {
  const { runs } = hex;
  runs.lastIndex = 0;
  for (let match = runs.exec(lower); match !== null; match = runs.exec(lower)) {
    const run = match[0];
    for (const length of hex.lengths) {
      if (length > run.length) break;
      for (let start = 0; start + length <= run.length; start += 1)
        if (hex.set.has(run.slice(start, start + length))) return true;
    }
  }
  return false;
}

function redactionFor(secrets: Iterable<string>): Redaction | null {
  const checked = checkedSecrets(secrets);
  if (checked.redaction === undefined) checked.redaction = redactionOfList(checked.list);
  return checked.redaction;
}

function redactionOfList(secrets: Iterable<string>): Redaction | null {
  const list = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET);
  list.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const key = list.join('\u0000');
  let redaction = redactions.get(key);
  if (redaction === undefined) {
    redaction = list.length > 0 ? buildRedaction(list) : null;
    if (redactions.size >= REDACTIONS_KEPT) redactions.clear();
    redactions.set(key, redaction);
  }
  return redaction;
}

function buildRedaction(list: readonly string[]): Redaction {
  const ascii = list.every((secret) => [...secret].every((char) => char.charCodeAt(0) < 128));
  const hex: string[] = [];
  const others: string[] = [];
  if (ascii) for (const secret of list) (HEX_ONLY.test(secret) ? hex : others).push(secret);
  return {
    list,
    ascii,
    hex: hex.length > 0 ? hexSecretsOf(hex) : undefined,
    probe:
      others.length > 0 ? new RegExp(others.map((secret) => escapeRegExp(secret.toLowerCase())).join('|')) : undefined,
    shortest: Math.min(...list.map((secret) => secret.length)),
  };
}

/** Whether the text may hold a secret: always, unless the probe can tell (every secret ASCII) and finds none. */
function mayHold(text: string, redaction: Redaction): boolean {
  if (!redaction.ascii) return true;
  const lower = text.toLowerCase();
  return (redaction.hex !== undefined && holdsHexSecret(lower, redaction.hex)) || redaction.probe?.test(lower) === true;
}

function replaceAll(text: string, redaction: Redaction | null): string {
  if (!redaction || text.length < redaction.shortest) return text;
  if (!mayHold(text, redaction)) return text;
  redaction.pattern ??= new RegExp(redaction.list.map(escapeRegExp).join('|'), 'gi');
  return text.replace(redaction.pattern, SAVED);
}

/** Replaces every occurrence of a secret in text (case-insensitive) with [saved]. */
export function redactText(text: string, secrets: Iterable<string>): string {
  return replaceAll(text, redactionFor(secrets));
}

/** Deep copy of `data` with secrets replaced in every string. */
export function redactData(data: unknown, secrets: Iterable<string>): unknown {
  const redaction = redactionFor(secrets);
  const visit = (value: unknown, depth: number): unknown => {
    if (depth > 30) return value;
    if (typeof value === 'string') return replaceAll(value, redaction);
    if (Array.isArray(value)) return value.map((item) => visit(item, depth + 1));
    if (value && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) setField(copy, key, visit(item, depth + 1));
      return copy;
    }
    return value;
  };
  return visit(data, 0);
}

/**
 * The password a `register` result carries: only a labelled one, a `Password: <value>` line or a JSON `password`
 * field. A bare 64-hex token may be the Session ID (same shape), so it is never taken for the password.
 */
export function findRegisteredPassword(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const found = jsonPassword(JSON.parse(trimmed), 0);
      if (found) return found;
    } catch {
      // not JSON after all: read the lines
    }
  }
  // "Password: …", "Your password (shown once, keep it safe): …": a line that starts with the label, a few words
  // about it allowed before the colon.
  const labelled = /^[ \t]*(?:your )?(?:new )?password\b[^:=\n]{0,48}[:=][ \t]*["']?([^\s"']{4,})/im.exec(text);
  return labelled?.[1];
}

function jsonPassword(value: unknown, depth: number): string | undefined {
  if (depth > 5 || !value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.password === 'string' && record.password.length >= 4) return record.password;
  for (const item of Object.values(record)) {
    const found = jsonPassword(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}
