// The fleet file (`skipper fleet FILE`): YAML (so JSON too) naming the captains to run, each field a play flag's long
// name in snake_case, a captain's fields over the file's `defaults:`. Read once at the boundary and checked with zod;
// every mistake becomes a sentence naming the file, the captain and the field, and all of them are reported at once.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { checkSessionName } from '../store/index.js';
import { EMPIRE_IDS } from '../sim/index.js';
import { FLEET_FILE_MAX_ALIASES, FLEET_FILE_MAX_BYTES, GOAL_MAX_CHARS, UsageError } from '../shared/index.js';
import type { EmpireId } from '../spacemolt/index.js';
import type { CaptainSpec, FleetSpec } from './types.js';
import { readAlerts } from './alerts-file.js';

const namePattern = /^[A-Za-z0-9_-]{1,40}$/;
const envNamePattern = /^[A-Z_][A-Z0-9_]*$/;

/** How a value is shown in a message: strings quoted, the rest as JSON; a long one by its start and its length. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > SHOWN_MAX
    ? `${text.slice(0, SHOWN_MAX)}… (${text.length.toLocaleString('en-US')} characters)`
    : text;
}

/** Characters of a value a message quotes. */
const SHOWN_MAX = 80;

/** A schema whose every failure reads `FIELD must be EXPECTED (got VALUE)`. */
function expecting<T>(schema: z.ZodType<T>, expected: string): { schema: z.ZodType<T>; expected: string } {
  return { schema, expected };
}

const text = z.string().trim().min(1);
const whole = (min: number): z.ZodNumber => z.number().int().min(min);
const envName = z.string().regex(envNamePattern);
const httpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
});

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `30m`, `1h30m`, `250ms`, or a number of milliseconds; undefined when it is none of them (or not > 0). */
export function parseFleetDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== trimmed) return undefined;
  let total = 0;
  for (const part of parts) total += Number(part[1]) * (DURATION_UNITS[part[2] ?? 's'] ?? 1000);
  return total > 0 ? Math.round(total) : undefined;
}

const duration = z.unknown().transform((value, context) => {
  const ms = parseFleetDuration(value);
  if (ms !== undefined) return ms;
  context.addIssue({ code: 'custom', message: 'not a duration' });
  return z.NEVER;
});

/** The fields a captain (or `defaults:`) may give: snake_case key → its CaptainSpec key and what it must be. */
const CAPTAIN_FIELDS = {
  game: { key: 'game', ...expecting(z.union([z.literal('embedded'), httpUrl]), '"embedded" or a game URL') },
  model: { key: 'model', ...expecting(text, 'a model id like openai/gpt-4o-mini') },
  fallback_model: { key: 'fallbackModel', ...expecting(text, 'a model id') },
  base_url: { key: 'baseUrl', ...expecting(httpUrl, 'a URL like https://api.example.com/v1') },
  api_key_env: { key: 'apiKeyEnv', ...expecting(envName, 'an environment variable name like OPENAI_API_KEY') },
  planner: { key: 'planner', ...expecting(z.boolean(), 'true or false') },
  planner_every: { key: 'plannerEvery', ...expecting(whole(1), 'a whole number of ticks ≥ 1') },
  goal: {
    key: 'goal',
    ...expecting(text.max(GOAL_MAX_CHARS), `some text of at most ${GOAL_MAX_CHARS.toLocaleString('en-US')} characters`),
  },
  max_ticks: { key: 'maxTicks', ...expecting(whole(1), 'a whole number ≥ 1') },
  max_turns: { key: 'maxTurns', ...expecting(whole(1), 'a whole number ≥ 1') },
  duration: { key: 'duration', ...expecting(duration, 'a duration like 90s, 30m or 2h, or a number of milliseconds') },
  budget_usd: { key: 'budgetUsd', ...expecting(z.number().positive(), 'a number of US dollars > 0') },
  budget_tokens: { key: 'budgetTokens', ...expecting(whole(1), 'a whole number of tokens ≥ 1') },
  username: { key: 'username', ...expecting(text, 'a user name') },
  password_env: { key: 'passwordEnv', ...expecting(envName, 'an environment variable name like PASS_MINER_1') },
  registration_code_env: {
    key: 'registrationCodeEnv',
    ...expecting(envName, 'an environment variable name like SPACEMOLT_CODE'),
  },
  tick_ms: { key: 'tickMs', ...expecting(whole(0).max(600_000), 'a whole number of milliseconds from 0 to 600000') },
  seed: { key: 'seed', ...expecting(z.number().int(), 'a whole number') },
  empire: {
    key: 'empire',
    ...expecting(
      z.enum(EMPIRE_IDS as [EmpireId, ...EmpireId[]]),
      `one of the game's empires: ${EMPIRE_IDS.join(', ')}`,
    ),
  },
  session: { key: 'session', ...expecting(text, 'a session name') },
} as const satisfies Record<string, { key: keyof CaptainSpec; schema: z.ZodType; expected: string }>;

type CaptainField = keyof typeof CAPTAIN_FIELDS;
const captainFieldNames = Object.keys(CAPTAIN_FIELDS) as CaptainField[];
const TOP_LEVEL_FIELDS = ['name', 'budget_usd', 'defaults', 'captains', 'alerts'];

/** Secrets written into the file itself, and where they belong instead. */
const INLINE_SECRETS: Record<string, string> = {
  password: 'password_env',
  registration_code: 'registration_code_env',
  api_key: 'api_key_env',
};

/** Fields that hold the name of an environment variable which must be set when the fleet starts. */
const ENV_FIELDS = [
  ['apiKeyEnv', 'api_key_env'],
  ['passwordEnv', 'password_env'],
  ['registrationCodeEnv', 'registration_code_env'],
] as const;

/** Edit distance counting a swap of two neighbours as one edit (typos like "modle"), for did-you-mean. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1];
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (same ? 0 : 1));
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known name closest to `key` when it is close enough to be a typo (or the snake_case of a camelCase key). */
export function closestName(key: string, known: readonly string[]): string | undefined {
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  if (snake !== key && known.includes(snake)) return snake;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(key.length / 3)));
  return best && best.distance <= allowed ? best.name : undefined;
}

function unknownField(key: string, known: readonly string[]): string {
  const secret = INLINE_SECRETS[key];
  if (secret) {
    return `${key} may not be written in the file: put it in an environment variable and name that with ${secret}`;
  }
  const close = closestName(key, known);
  return `unknown field "${key}"${close ? ` — did you mean ${close}?` : ` (the fields are: ${known.join(', ')})`}`;
}

/** A did-you-mean for a field whose values are names (an empire spelled wrong). */
function hint(key: string, value: unknown): string {
  if (key !== 'empire' || typeof value !== 'string') return '';
  const close = closestName(value, EMPIRE_IDS);
  return close ? ` — did you mean ${close}?` : '';
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Collects the file's problems; `where` is `captain "x"`, `captains[3]` or `defaults`. */
class Problems {
  readonly lines: string[] = [];
  constructor(private readonly file: string) {}

  add(where: string | undefined, message: string): void {
    this.lines.push(`${this.file}: ${where ? `${where}: ` : ''}${message}`);
  }

  throwIfAny(): void {
    if (this.lines.length > 0) throw new UsageError(this.lines.join('\n'));
  }
}

/** The fields of one captain (or of `defaults:`), checked one by one; what is valid, in CaptainSpec's keys. */
function readCaptainFields(
  raw: Record<string, unknown>,
  options: { where: string; problems: Problems; skip: readonly string[] },
): Partial<CaptainSpec> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (options.skip.includes(key)) continue;
    if (!Object.hasOwn(CAPTAIN_FIELDS, key)) {
      options.problems.add(options.where, unknownField(key, [...options.skip, ...captainFieldNames]));
      continue;
    }
    const field = CAPTAIN_FIELDS[key as CaptainField];
    const result = (field.schema as z.ZodType).safeParse(value);
    if (result.success) out[field.key] = result.data;
    else
      options.problems.add(options.where, `${key} must be ${field.expected} (got ${shown(value)})${hint(key, value)}`);
  }
  return out as Partial<CaptainSpec>;
}

/** A captain's label in messages, and its name when it has a usable one. */
function captainLabel(raw: unknown, index: number): { where: string; name?: string } {
  if (isMapping(raw) && typeof raw.name === 'string' && raw.name !== '') {
    return { where: `captain ${JSON.stringify(raw.name)}`, name: raw.name };
  }
  return { where: `captains[${index}]` };
}

function readCaptain(
  raw: unknown,
  options: { index: number; defaults: Partial<CaptainSpec>; problems: Problems },
): CaptainSpec | undefined {
  const { where, name } = captainLabel(raw, options.index);
  if (!isMapping(raw)) {
    options.problems.add(where, `must be a mapping with a name and the captain's fields (got ${shown(raw)})`);
    return undefined;
  }
  const own = readCaptainFields(raw, { where, problems: options.problems, skip: ['name'] });
  if (raw.name === undefined || raw.name === null) {
    options.problems.add(where, 'name is missing: give each captain a name (letters, digits, - and _)');
    return undefined;
  }
  if (name === undefined || !namePattern.test(name)) {
    options.problems.add(where, `name must be 1-40 letters, digits, - or _ (got ${shown(raw.name)})`);
    return undefined;
  }
  const merged: CaptainSpec = {
    game: 'embedded',
    model: 'builtin/autopilot',
    planner: false,
    ...options.defaults,
    ...own,
    name,
    session: own.session ?? name,
  };
  checkSession(merged.session, { where, problems: options.problems });
  return merged;
}

function checkSession(session: string, options: { where: string; problems: Problems }): void {
  try {
    checkSessionName(session);
  } catch (error) {
    options.problems.add(options.where, `session ${error instanceof Error ? error.message : String(error)}`);
  }
}

function checkUnique(captains: CaptainSpec[], problems: Problems): void {
  const names = new Set<string>();
  const sessions = new Map<string, string>();
  for (const captain of captains) {
    const where = `captain ${JSON.stringify(captain.name)}`;
    if (names.has(captain.name)) problems.add(where, 'the name is used by another captain: names must be unique');
    names.add(captain.name);
    const holder = sessions.get(captain.session);
    if (holder !== undefined && holder !== captain.name) {
      problems.add(
        where,
        `session "${captain.session}" is already played by captain "${holder}": give it its own session`,
      );
    }
    sessions.set(captain.session, captain.name);
    const username = captain.username ?? captain.name;
    if (!USERNAME.test(username))
      problems.add(
        where,
        captain.username === undefined
          ? `its name is its game username unless username: says otherwise, and a username needs 3-24 letters, digits, _ or - (got "${username}"): add username:`
          : `username must be 3-24 letters, digits, _ or - (got "${username}")`,
      );
  }
}

/** SpaceMolt's (and minimolt's) rule for a username. */
const USERNAME = /^[A-Za-z0-9_-]{3,24}$/;

function parseYaml(text: string, file: string): unknown {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    const message = error.message.split('\n')[0] ?? error.message;
    throw new UsageError(`${file}: line ${line}, column ${col}: not valid YAML (${message})`);
  }
  try {
    // yaml refuses an alias expanded past maxAliasCount (a "billion laughs" bomb) with a ReferenceError.
    return document.toJS({ maxAliasCount: FLEET_FILE_MAX_ALIASES }) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      `${file}: its aliases (*name) expand too far (${message.split('\n')[0]}); write the values out, or use fewer aliases`,
      { cause: error },
    );
  }
}

function fleetName(raw: Record<string, unknown>, file: string, problems: Problems): string {
  if (raw.name !== undefined) {
    if (typeof raw.name === 'string' && namePattern.test(raw.name)) return raw.name;
    problems.add(undefined, `name must be 1-40 letters, digits, - or _ (got ${shown(raw.name)})`);
    return '';
  }
  const base = path.basename(file, path.extname(file));
  if (!namePattern.test(base)) {
    problems.add(
      undefined,
      `the file name "${base}" cannot name the fleet (1-40 letters, digits, - or _): add a top-level name:`,
    );
  }
  return base;
}

function readTopLevel(
  raw: Record<string, unknown>,
  problems: Problems,
): { budgetUsd?: number; defaults: Partial<CaptainSpec>; captains: unknown[] } {
  for (const key of Object.keys(raw)) {
    if (!TOP_LEVEL_FIELDS.includes(key)) problems.add(undefined, unknownField(key, TOP_LEVEL_FIELDS));
  }
  let budgetUsd: number | undefined;
  if (raw.budget_usd !== undefined) {
    const result = CAPTAIN_FIELDS.budget_usd.schema.safeParse(raw.budget_usd);
    if (result.success) budgetUsd = result.data;
    else problems.add(undefined, `budget_usd must be a number of US dollars > 0 (got ${shown(raw.budget_usd)})`);
  }
  let defaults: Partial<CaptainSpec> = {};
  if (raw.defaults !== undefined && raw.defaults !== null) {
    if (isMapping(raw.defaults)) {
      const { name, session, ...fields } = raw.defaults;
      if (name !== undefined || session !== undefined) {
        problems.add('defaults', 'name and session belong to each captain, not to defaults');
      }
      defaults = readCaptainFields(fields, { where: 'defaults', problems, skip: [] });
    } else problems.add(undefined, `defaults must be a mapping of captain fields (got ${shown(raw.defaults)})`);
  }
  const captains = Array.isArray(raw.captains) ? raw.captains : [];
  if (captains.length === 0) {
    problems.add(
      undefined,
      `captains must be a non-empty list of captains, each with a name (got ${shown(raw.captains)})`,
    );
  }
  return { budgetUsd, defaults, captains };
}

/** The fleet a file's text describes; throws UsageError naming every problem (environment variables are not checked here). */
export function parseFleetText(text: string, file: string): FleetSpec {
  checkFleetSize(Buffer.byteLength(text), file);
  const raw = parseYaml(text, file);
  if (!isMapping(raw)) {
    throw new UsageError(`${file}: expected a mapping with captains: (a list of captains), got ${shown(raw ?? null)}`);
  }
  const problems = new Problems(file);
  const name = fleetName(raw, file, problems);
  const top = readTopLevel(raw, problems);
  const captains: CaptainSpec[] = [];
  top.captains.forEach((entry, index) => {
    const captain = readCaptain(entry, { index, defaults: top.defaults, problems });
    if (captain) captains.push(captain);
  });
  checkUnique(captains, problems);
  const alerts =
    raw.alerts === undefined
      ? undefined
      : readAlerts(raw.alerts, {
          captains: captains.map((captain) => captain.name),
          problem: (message) => problems.add(undefined, message),
        });
  problems.throwIfAny();
  const spec: FleetSpec = { name, file: path.resolve(file), captains };
  if (top.budgetUsd !== undefined) spec.budgetUsd = top.budgetUsd;
  if (alerts) spec.alerts = alerts;
  return spec;
}

/** Every environment variable the fleet names (passwords, registration codes, API keys) must be set. */
export function checkFleetEnvironment(spec: FleetSpec, env: Record<string, string | undefined>): void {
  const problems = new Problems(spec.file);
  for (const captain of spec.captains) {
    for (const [key, field] of ENV_FIELDS) {
      const variable = captain[key];
      if (variable !== undefined && !env[variable]) {
        problems.add(`captain ${JSON.stringify(captain.name)}`, `${field} ${variable} is not set in the environment`);
      }
    }
  }
  problems.throwIfAny();
}

function checkFleetSize(bytes: number, file: string): void {
  if (bytes > FLEET_FILE_MAX_BYTES)
    throw new UsageError(
      `${file} is ${bytes.toLocaleString('en-US')} bytes; a fleet file is at most ${FLEET_FILE_MAX_BYTES.toLocaleString('en-US')}`,
    );
}

/** Reads, checks and returns the fleet file at `file`, its environment variables checked against `env`. */
export function readFleetFile(file: string, env: Record<string, string | undefined>): FleetSpec {
  let text: string;
  try {
    // Measured before it is read: a runaway file is refused without loading it.
    const stat = statSync(file);
    if (stat.isFile()) checkFleetSize(stat.size, file);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw new UsageError(`no fleet file at ${file}`, { cause: error });
    if (code === 'EISDIR') throw new UsageError(`${file} is a directory, not a fleet file`, { cause: error });
    throw new UsageError(`cannot read the fleet file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const spec = parseFleetText(text, file);
  checkFleetEnvironment(spec, env);
  return spec;
}
