// Rule 13 at store level: a process appending messages is killed with SIGKILL at random moments; every message it
// reported as committed must be there, the file must pass integrity_check, and the transcript must repair cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectionPragmas,
  insertMessageSql,
  openStore,
  repairDanglingToolCalls,
} from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

// Plain JS so the child needs no TypeScript: the same pragmas and INSERT as the store, one autocommit per message,
// the id printed only after the INSERT returned. An assistant message with a tool call, then its result, so kills
// also land between a call and its result.
const childScript = `
import Database from 'better-sqlite3';
const { file, sessionId, pragmas, sql, prefix } = JSON.parse(process.argv[1]);
const db = new Database(file, { fileMustExist: true });
for (const pragma of pragmas) db.pragma(pragma);
const insert = db.prepare(sql);
process.stderr.write('open\\n');
const row = (id, fields) => ({ id, session_id: sessionId, turn: null, round: null, tool_calls: null, tool_call_id: null,
  tool_name: null, data: null, is_error: null, reasoning: null, created_at: Date.now(), ...fields });
for (let i = 0; ; i++) {
  const id = prefix + '-' + i;
  if (i % 2 === 0) {
    insert.run(row(id, { role: 'assistant', content: 'x'.repeat(i % 700), turn: i, round: 1,
      tool_calls: JSON.stringify([{ id: 'call-' + id, name: 'mine', arguments: '{}' }]) }));
  } else {
    const callId = 'call-' + prefix + '-' + (i - 1);
    insert.run(row(id, { role: 'tool', content: 'mined', turn: i - 1, round: 1, tool_call_id: callId, tool_name: 'mine',
      data: JSON.stringify({ quantity: i }), is_error: 0 }));
  }
  // stdout to the parent is a socket: when its buffer is full (a busy parent reads late) the write is queued, and
  // only a turn of the event loop sends it; without this wait the loop would never yield and the parent never hear.
  if (!process.stdout.write(id + '\\n')) await new Promise((resolve) => process.stdout.once('drain', resolve));
}
`;

// A child still running when a test ends (it failed or timed out) would append for ever: it is killed.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** Runs the child until it has reported `after` commits, then SIGKILLs it; returns every id it reported. */
function appendUntilKilled(options: {
  file: string;
  sessionId: string;
  prefix: string;
  after: number;
  /** Read nothing until this long after the child opened the file, as a busy parent does: its writes back up. */
  readLateMs?: number;
}): Promise<string[]> {
  const argument = JSON.stringify({
    file: options.file,
    sessionId: options.sessionId,
    pragmas: connectionPragmas,
    sql: insertMessageSql,
    prefix: options.prefix,
  });
  const child = spawn(process.execPath, ['--input-type=module', '-e', childScript, argument], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const reported: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    reported.push(line);
    if (reported.length === options.after) child.kill('SIGKILL');
  });
  const { readLateMs } = options;
  if (readLateMs) {
    child.stdout.pause();
    child.stderr.once('data', () => setTimeout(() => child.stdout.resume(), readLateMs));
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child ended by itself (code ${code}): ${stderr}`));
      else resolve(reported);
    });
  });
}

describe('kill -9 durability', () => {
  it('keeps every reported message through repeated SIGKILLs, with a sound file and a repairable transcript', async () => {
    const { file } = tempDbPath();
    const setup = await openStore({ path: file });
    const sessionId = (await setup.createSession({ name: 'crashy', game: 'embedded', model: 'scripted' })).id;
    await setup.close();

    const committed: string[] = [];
    for (let round = 0; round < 5; round++) {
      // Random moments: anywhere from a handful to several hundred commits in. The first round reads late and goes on
      // past what the socket and the parent's stream buffer hold (~2,600 ids): the child must wait for its writes to
      // drain, or the parent never hears of the rest.
      const after = round === 0 ? 6000 : 5 + Math.floor(Math.random() * 600);
      const readLateMs = round === 0 ? 500 : 0;
      const reported = await appendUntilKilled({ file, sessionId, prefix: `r${round}`, after, readLateMs });
      expect(reported.length).toBeGreaterThanOrEqual(after);
      committed.push(...reported);

      const store = await openStore({ path: file }); // quick_check on open
      expect(await store.integrityCheck()).toEqual(['ok']);
      const messages = await store.messages(sessionId);
      const stored = new Set(messages.map((message) => message.id));
      const missing = committed.filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      // Resume: whatever tool call the kill left without a result gets one, and then nothing dangles.
      const repairs = repairDanglingToolCalls(messages);
      expect(repairs.length).toBeLessThanOrEqual(1);
      const repaired = await store.appendMany(sessionId, repairs);
      expect(repairDanglingToolCalls(await store.messages(sessionId))).toEqual([]);
      committed.push(...repaired.map((message) => message.id));
      await store.close();
    }
    // Each commit is a WAL write; on a loaded 2-core CI machine five rounds can take a while.
  }, 120_000);
});
