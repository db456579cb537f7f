// Shared pieces of the fault suite (npm run test:faults): the mode (full or short), the figure each group reports
// to the fault reporter, a scripted captain for the fake OpenAI server, and checks on a stored SKIPPER_HOME.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from '../fakes/fake-openai.js';
import type { CliRun } from '../fakes/cli-process.js';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** The group a fault case belongs to (one line each in the reporter's summary). */
    faultGroup?: string;
    /** The group's figure line, written as the case goes (a case that times out still reports how far it got). */
    faultLine?: string;
    /** Why the case failed, in one line, for the summary. */
    faultCause?: string;
  }
}

export type FaultMode = 'full' | 'short';

/** SKIPPER_FAULTS=short (or `npm run test:faults -- --short`) runs the short form CI uses. */
export function faultMode(): FaultMode {
  return process.env.SKIPPER_FAULTS === 'short' ? 'short' : 'full';
}

export type JsonEvent = Record<string, unknown> & { type?: string };

/** The --json events a run printed; a line cut by a kill is skipped. */
export function jsonEvents(cli: CliRun): JsonEvent[] {
  const events: JsonEvent[] = [];
  for (const line of cli.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as JsonEvent);
    } catch {
      // the last line may have been cut by a kill
    }
  }
  return events;
}

/** Polls `check` every `everyMs` until it holds: true then, false if it still does not after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return await check();
}

/** Writes an ES module for a child's `NODE_OPTIONS=--import=PATH` into `dir` and returns its path. */
export function preloadModule(dir: string, name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** Ends a child the suite started, if it is still running. */
export async function stopChild(cli: CliRun, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) {
    cli.child.kill(signal);
    await cli.exited;
  }
}

/** Resolves with the exit, or with undefined after `ms` (the child is then killed). */
export async function exitWithin(
  cli: CliRun,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  const result = await Promise.race([cli.exited, timedOut]);
  clearTimeout(timer);
  if (result === undefined) await stopChild(cli);
  return result;
}

interface StoredMessage {
  id: string;
  session_id: string;
  role: string;
  tool_calls: string | null;
  tool_call_id: string | null;
}

export interface StoreCheck {
  integrity: string;
  ids: Set<string>;
  /** Assistant tool-call ids with no tool message answering them, per session. */
  dangling: string[];
  sessions: number;
}

/** Opens $home/skipper.db read-only the way a resumed Skipper would meet it after a crash. */
export function checkStore(home: string): StoreCheck {
  const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const rows = db
      .prepare('SELECT id, session_id, role, tool_calls, tool_call_id FROM messages ORDER BY seq')
      .all() as StoredMessage[];
    const answered = new Set(
      rows
        .filter((row) => row.role === 'tool' && row.tool_call_id)
        .map((row) => `${row.session_id}/${row.tool_call_id}`),
    );
    const dangling: string[] = [];
    for (const row of rows) {
      if (row.role !== 'assistant' || !row.tool_calls) continue;
      for (const call of JSON.parse(row.tool_calls) as Array<{ id: string }>) {
        if (!answered.has(`${row.session_id}/${call.id}`)) dangling.push(call.id);
      }
    }
    const sessions = (db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;
    return { integrity, ids: new Set(rows.map((row) => row.id)), dangling, sessions };
  } finally {
    db.close();
  }
}

/** Every text column of every table except `credentials` (where the password belongs), as one string. */
export function storeText(home: string): string {
  const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
        name: string;
      }>
    )
      .map((row) => row.name)
      .filter((name) => name !== 'credentials');
    return tables.map((name) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

export function storedPasswords(home: string): string[] {
  const db = new Database(join(home, 'skipper.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT password FROM credentials').all() as Array<{ password: string }>).map(
      (row) => row.password,
    );
  } finally {
    db.close();
  }
}

/** A deterministic generator so the kill moments are the same on every run. */
export function moments(seed: number, count: number, spanMs: number): number[] {
  let state = seed >>> 0;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % spanMs;
  });
}

type ChatMessage = { role: string; content?: unknown; tool_calls?: unknown[] };

/** Whether the transcript shows this captain's register call (its later runs log in with the stored password). */
function registered(messages: ChatMessage[]): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      (message.tool_calls ?? []).some((call) => JSON.stringify(call).includes('spacemolt_auth')),
  );
}

/** Whether the request offers the model this tool. */
function offers(request: RecordedRequest, name: string): boolean {
  const tools = (request.body?.tools ?? []) as Array<{ function?: { name?: string } }>;
  return tools.some((tool) => tool.function?.name === name);
}

/** Tool results since the last user message: how far into its turn the captain is. */
function roundsIntoTurn(messages: ChatMessage[]): number {
  let rounds = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'user') break;
    if (message.role === 'assistant') rounds += 1;
  }
  return rounds;
}

/**
 * A scripted captain for embedded minimolt (the v2 face) that never runs out: it registers once, then each turn it
 * reads its status, makes two read-only calls at once, mines (a mutation), then answers; the end-of-session handoff
 * gets plain text.
 */
export function captain(request: RecordedRequest): {
  content?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
} {
  const messages = (request.body?.messages ?? []) as ChatMessage[];
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  if (typeof lastUser?.content === 'string' && lastUser.content.startsWith('The session ends now'))
    return { content: 'Handoff: mining near the start.' };
  switch (roundsIntoTurn(messages)) {
    case 0:
      // A new pilot registers first (Skipper fills in the code and keeps the password); a captain that played on
      // unregistered would only collect refusals, which Skipper now paces as the real server's IP limit requires.
      // Logged in, the account tool is no longer offered (the token diet lists it on demand): nothing to register.
      if (!registered(messages) && offers(request, 'spacemolt_auth'))
        return {
          toolCalls: [
            {
              name: 'spacemolt_auth',
              arguments: { action: 'register', username: 'faults_captain', empire: 'solarian' },
            },
          ],
        };
      return { toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }] };
    case 1:
      return {
        toolCalls: [
          { name: 'spacemolt', arguments: { action: 'get_system' } },
          { name: 'spacemolt', arguments: { action: 'get_cargo' } },
        ],
      };
    case 2:
      return { toolCalls: [{ name: 'spacemolt', arguments: { action: 'mine' } }] };
    default:
      return { content: 'Status read, ore mined; holding for the next tick.' };
  }
}

/** An endless script of the captain (each request consumes one step). */
export function captainScript(length = 5_000): Array<typeof captain> {
  return Array.from({ length }, () => captain);
}
