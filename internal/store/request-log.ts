// The request log: every model request exactly as it was sent, so a session's decision points can be asked again
// (counterfactual replay). Content-addressed: each distinct message (as JSON text) and each distinct tool list is
// stored once in context_blobs, keyed by the SHA-256 of that text and deflated; a request row holds the ids of its
// pieces in order.
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { UsageError, type ContextRecipe, type DecisionInputs, type Message, type ToolSpec } from '../shared/index.js';
import type {
  RequestLogStore,
  RequestOutcome,
  RequestRecord,
  RequestRecordInput,
  StoredRequest,
} from './request-types.js';
import type { MessageRange } from './types.js';
import { guardedWrite } from './write-guard.js';

/** Piece ids remembered per session, by the JSON text handed in: most pieces of a request were in the previous one,
 * and callers that hand the same string objects again (RequestSerializer) are answered without redacting or hashing.
 * Per session, because one store serves a whole fleet: 50 captains' contexts (~100 pieces each) would overflow one
 * shared cache every round and send every piece back through SHA-256 and a SELECT. */
export const CACHE_LIMIT = 1_000;
/** Sessions whose caches are kept (least recently recording dropped first): more than a fleet on one machine. */
export const SESSIONS_CACHED = 256;
/** Pieces are small (most under 4 KB): a 4 KB window compresses them as well as the default 32 KB one, with a far
 * smaller (and faster) compressor state for each. */
const DEFLATE = { windowBits: 12, memLevel: 4 } as const;
/** Pieces shorter than this (in bytes) are kept as one stored, uncompressed deflate block: every reader inflates them
 * as before, and writing one costs a copy, not a compressor made for a few hundred bytes (most pieces are one message;
 * a fleet writes thousands a minute). */
const STORED_BELOW = 1024;

/** A piece's body: raw deflate, compressed when long enough to gain from it. */
export function encodePiece(json: string): Buffer {
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.length >= STORED_BELOW) return deflateRawSync(bytes, DEFLATE);
  // RFC 1951 §3.2.4: a final block (BFINAL 1, BTYPE 00), its length and the length's complement, then the bytes.
  const header = Buffer.alloc(5);
  header[0] = 1;
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

export interface RequestRow {
  id: number;
  session_id: string;
  turn: number;
  round: number;
  attempt: number;
  model: string;
  outcome: RequestOutcome;
  created_at: number;
  message_ids: string;
  tools_id: number;
  recipe: string | null;
  inputs: string | null;
}

type Statements = Record<
  'insertRequest' | 'insertPiece' | 'selectPiece' | 'selectPieces' | 'selectRange' | 'selectOne' | 'countRequests',
  Database.Statement
>;

const recordColumns = 'id, session_id, turn, round, attempt, model, outcome, created_at';

export class SqliteRequestLog implements RequestLogStore {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly path: string;
  /** Per session: text as handed in → the id of its (redacted) piece. */
  private readonly known = new Map<string, Map<string, number>>();
  private statements: Statements | undefined;
  /** Requests handed to recordSoon, not written yet. */
  private pending: RequestRecordInput[] = [];
  private readonly onDeferredError: ((error: unknown) => void) | undefined;

  private readonly redact: (text: string) => string;

  constructor(
    db: Database.Database,
    options: {
      path: string;
      now: () => number;
      redact?: ((text: string) => string) | undefined;
      /** Told when a deferred write (recordSoon) fails; it is dropped otherwise. */
      onDeferredError?: (error: unknown) => void;
    },
  ) {
    this.db = db;
    this.onDeferredError = options.onDeferredError;
    this.redact = options.redact ?? ((text) => text);
    this.now = options.now;
    this.path = options.path;
  }

  record(input: RequestRecordInput): number {
    this.flush();
    return this.write([input])[0] as number;
  }

  recordSoon(input: RequestRecordInput): void {
    if (this.pending.length === 0) setImmediate(() => this.flushQuietly());
    this.pending.push(input);
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.write(rows);
  }

  /** The deferred write: a failure is logged by the write guard's error, never thrown into the event loop. */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch (error) {
      this.onDeferredError?.(error);
    }
  }

  /** Writes requests in one transaction; returns their ids in order. */
  private write(inputs: readonly RequestRecordInput[]): number[] {
    const statements = this.prepared();
    const ids: number[] = [];
    // Pieces written in this transaction are remembered only once it commits: a rolled-back id must not be reused.
    const fresh = new Map<string, Map<string, number>>();
    guardedWrite({
      path: this.path,
      sessionId: inputs[0]?.sessionId ?? '',
      run: () =>
        this.db.transaction(() => {
          for (const input of inputs) {
            const known = this.sessionCache(input.sessionId);
            const added = fresh.get(input.sessionId) ?? new Map<string, number>();
            fresh.set(input.sessionId, added);
            const pieceOf = (text: string): number => known.get(text) ?? added.get(text) ?? this.piece(text, added);
            const messageIds = input.messages.map(pieceOf);
            const toolsId = pieceOf(input.tools);
            const result = statements.insertRequest.run({
              session: input.sessionId,
              turn: input.turn,
              round: input.round,
              attempt: input.attempt,
              model: input.model,
              messageIds: JSON.stringify(messageIds),
              toolsId,
              recipe: input.recipe === undefined ? null : this.redact(input.recipe),
              inputs: input.inputs === undefined ? null : this.redact(input.inputs),
              outcome: input.outcome,
              createdAt: input.createdAt ?? this.now(),
            });
            ids.push(Number(result.lastInsertRowid));
          }
        })(),
    });
    for (const [sessionId, added] of fresh) {
      const known = this.sessionCache(sessionId);
      // Started afresh when full: the next request then finds its pieces with one SELECT each, once.
      if (known.size + added.size > CACHE_LIMIT) known.clear();
      for (const [text, pieceId] of added) known.set(text, pieceId);
    }
    return ids;
  }

  /** The session's piece cache, moved to the recent end (the least recently recording session's goes first). */
  private sessionCache(sessionId: string): Map<string, number> {
    const cache = this.known.get(sessionId) ?? new Map<string, number>();
    this.known.delete(sessionId);
    this.known.set(sessionId, cache);
    for (const oldest of this.known.keys()) {
      if (this.known.size <= SESSIONS_CACHED) break;
      this.known.delete(oldest);
    }
    return cache;
  }

  list(sessionId: string, range: MessageRange = {}): RequestRecord[] {
    this.flush();
    const rows = this.prepared().selectRange.all({
      session: sessionId,
      from: range.fromTurn ?? null,
      to: range.toTurn ?? null,
    }) as RequestRow[];
    return rows.map(toRecord);
  }

  count(sessionId: string): number {
    this.flush();
    return (this.prepared().countRequests.get(sessionId) as { n: number }).n;
  }

  load(id: number): StoredRequest {
    this.flush();
    const statements = this.prepared();
    const row = statements.selectOne.get(id) as RequestRow | undefined;
    if (!row) throw new UsageError(`no stored model request with id ${id}`);
    const ids = JSON.parse(row.message_ids) as number[];
    const bodies = statements.selectPieces.all(JSON.stringify([...ids, row.tools_id])) as Array<{
      id: number;
      body: Buffer;
    }>;
    return assembleRequest(id, row, bodies);
  }

  /**
   * The id of a piece, stored now when new (redacted first: secrets never reach the file). Runs inside the request's
   * transaction. Remembered under the text as handed in, so an unchanged message is not redacted again: a secret
   * learnt later cannot be in a text handed in before it existed (passwords reach contexts as [saved]).
   */
  private piece(text: string, fresh: Map<string, number>): number {
    const json = this.redact(text);
    const digest = createHash('sha256').update(json).digest();
    const statements = this.prepared();
    const found = statements.selectPiece.get(digest) as { id: number } | undefined;
    const id = found?.id ?? Number(statements.insertPiece.run(digest, encodePiece(json)).lastInsertRowid);
    fresh.set(text, id);
    return id;
  }

  /** Statements are made on first use: a read-only connection never prepares the writes. */
  private prepared(): Statements {
    this.statements ??= this.prepare();
    return this.statements;
  }

  private prepare(): Statements {
    return {
      insertRequest: this.db.prepare(
        `INSERT INTO requests (session_id, turn, round, attempt, model, message_ids, tools_id, recipe, inputs, outcome,
           created_at)
         VALUES (@session, @turn, @round, @attempt, @model, @messageIds, @toolsId, @recipe, @inputs, @outcome, @createdAt)`,
      ),
      insertPiece: this.db.prepare('INSERT INTO context_blobs (hash, body) VALUES (?, ?)'),
      selectPiece: this.db.prepare('SELECT id FROM context_blobs WHERE hash = ?'),
      selectPieces: this.db.prepare('SELECT id, body FROM context_blobs WHERE id IN (SELECT value FROM json_each(?))'),
      selectRange: this.db.prepare(
        `SELECT ${recordColumns} FROM requests
         WHERE session_id = @session AND (@from IS NULL OR turn >= @from) AND (@to IS NULL OR turn <= @to)
         ORDER BY id`,
      ),
      selectOne: this.db.prepare(
        `SELECT ${recordColumns}, message_ids, tools_id, recipe, inputs FROM requests WHERE id = ?`,
      ),
      countRequests: this.db.prepare('SELECT COUNT(*) AS n FROM requests WHERE session_id = ?'),
    };
  }
}

/** A stored recipe, checked: ids (or null) where ids go, numbers where numbers go. */
export function recipeOf(text: string, id: number): ContextRecipe {
  const damaged = (): UsageError =>
    new UsageError(`stored model request ${id} has a context recipe that cannot be read; the database is damaged`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged();
  }
  const recipe = value as Partial<ContextRecipe> | null;
  const idOrNull = (field: unknown): boolean => field === null || typeof field === 'string';
  if (
    typeof recipe !== 'object' ||
    recipe === null ||
    !idOrNull(recipe.through) ||
    !idOrNull(recipe.start) ||
    typeof recipe.budgetTokens !== 'number' ||
    ![0, 1, 2].includes(recipe.compaction as number) ||
    !Array.isArray(recipe.local) ||
    !recipe.local.every((name) => typeof name === 'string') ||
    (recipe.nudge !== undefined && typeof recipe.nudge !== 'boolean') ||
    (recipe.from !== undefined && !idOrNull(recipe.from))
  )
    throw damaged();
  return recipe as ContextRecipe;
}

/** Stored decision inputs, checked as far as the store knows them: an instance, and the captain's own object. */
export function inputsOf(text: string, id: number): DecisionInputs {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const inputs = value as Partial<DecisionInputs> | null | undefined;
  const isObject = (field: unknown): boolean => typeof field === 'object' && field !== null && !Array.isArray(field);
  if (
    !isObject(inputs) ||
    typeof inputs?.instance !== 'string' ||
    (inputs.given !== undefined && !isObject(inputs.given))
  )
    throw new UsageError(`stored model request ${id} has decision inputs that cannot be read; the database is damaged`);
  return inputs as DecisionInputs;
}

export function toRecord(row: RequestRow): RequestRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    turn: row.turn,
    round: row.round,
    attempt: row.attempt,
    model: row.model,
    outcome: row.outcome,
    createdAt: row.created_at,
  };
}

/** A stored request rebuilt from its row and its (deflated) pieces; a piece missing is a damaged database. */
export function assembleRequest(
  id: number,
  row: RequestRow,
  bodies: ReadonlyArray<{ id: number; body: Buffer }>,
): StoredRequest {
  const pieces = new Map<number, string>();
  for (const piece of bodies) pieces.set(Number(piece.id), inflateRawSync(piece.body).toString('utf8'));
  const text = (pieceId: number): string => {
    const json = pieces.get(pieceId);
    if (json === undefined)
      throw new UsageError(`stored model request ${id} is missing a piece (${pieceId}); the database is damaged`);
    return json;
  };
  const ids = JSON.parse(row.message_ids) as number[];
  return {
    ...toRecord(row),
    messages: ids.map((pieceId) => JSON.parse(text(pieceId)) as Message),
    tools: JSON.parse(text(row.tools_id)) as ToolSpec[],
    ...(row.recipe === null ? {} : { recipe: recipeOf(row.recipe, id) }),
    // Rows stored before the column existed (or of a captain with nothing to keep) have none: replayed as before.
    ...(row.inputs === null || row.inputs === undefined ? {} : { inputs: inputsOf(row.inputs, id) }),
  };
}
