// Game targets: what `--game VALUE` names and how to reach it (HTTP URL, a child process over stdio, or an
// in-process transport such as the embedded minimolt, which the CLI resolves).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UsageError } from '../shared/index.js';

export type GameTarget =
  | { kind: 'http'; url: string }
  /** `env`: set on top of Skipper's own environment (`--game-env KEY=VALUE`). */
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string> }
  | { kind: 'transport'; label: string; url: string; connect: () => Promise<Transport> };

/** SpaceMolt's grouped face (a few tools, an `action` each): far fewer schema tokens than the flat one. */
export const SPACEMOLT_URL = 'https://game.spacemolt.com/mcp/v2?preset=standard';
/** SpaceMolt's flat face (~200 tools). */
export const SPACEMOLT_V1_URL = 'https://game.spacemolt.com/mcp';

const ACCEPTED =
  "accepted: 'embedded', 'spacemolt' (the /mcp/v2 face), 'spacemolt-v1' (the flat /mcp face), an http(s):// URL of " +
  "an MCP endpoint, or 'stdio:COMMAND ARGS'";

/** Parses `--game`. 'embedded' is not handled here: the CLI creates minimolt and builds a transport target. */
export function parseGameTarget(value: string): GameTarget {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'spacemolt') return { kind: 'http', url: SPACEMOLT_URL };
  if (trimmed.toLowerCase() === 'spacemolt-v1') return { kind: 'http', url: SPACEMOLT_V1_URL };
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      return { kind: 'http', url: new URL(trimmed).toString() };
    } catch {
      throw new UsageError(`--game ${JSON.stringify(value)} is not a valid URL; ${ACCEPTED}`);
    }
  }
  if (trimmed.toLowerCase().startsWith('stdio:')) {
    const words = splitCommandLine(trimmed.slice('stdio:'.length));
    const [command, ...args] = words;
    if (!command) throw new UsageError(`--game stdio: needs a command, e.g. "stdio:node server.js"; ${ACCEPTED}`);
    return { kind: 'stdio', command, args };
  }
  throw new UsageError(`--game ${JSON.stringify(value)} is not a game this client knows; ${ACCEPTED}`);
}

/** The endpoint's full address (credentials are filed by host: see credential-key.ts). */
export function targetUrl(target: GameTarget): string {
  if (target.kind === 'stdio') return `stdio:${[target.command, ...target.args].join(' ')}`;
  return target.url;
}

export function targetLabel(target: GameTarget): string {
  if (target.kind === 'transport') return target.label;
  if (target.kind === 'http' && target.url === SPACEMOLT_URL) return 'spacemolt';
  if (target.kind === 'http' && target.url === SPACEMOLT_V1_URL) return 'spacemolt-v1';
  return targetUrl(target);
}

/** Parses one `--game-env KEY=VALUE` (split at the first "="; the value may be empty or contain "="). */
export function parseEnvAssignment(value: string): [string, string] {
  const equals = value.indexOf('=');
  if (equals <= 0)
    throw new UsageError(
      `--game-env ${JSON.stringify(value)} needs the form KEY=VALUE, e.g. --game-env GAME_TOKEN=abc123`,
    );
  const key = value.slice(0, equals);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
    throw new UsageError(
      `--game-env: ${JSON.stringify(key)} is not a valid variable name (letters, digits, _); use KEY=VALUE`,
    );
  }
  return [key, value.slice(equals + 1)];
}

/** Splits on whitespace, honouring single and double quotes (no shell expansion). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote) throw new UsageError(`unclosed quote in stdio command: ${line}`);
  if (started) words.push(current);
  return words;
}
