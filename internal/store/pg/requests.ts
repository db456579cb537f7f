// The request log on PostgreSQL (request-log.ts is SQLite's): every model request as sent, content-addressed — each
// distinct piece (one message as JSON text, or a tool list) stored once in context_blobs under the SHA-256 of its
// redacted text, raw-deflated the same way (encodePiece), a request a row of piece ids. Requests join the store's group
// commit: a round's request, its usage row and its transcript lines, handed in while the event loop turns, share one
// transaction (one BEGIN and COMMIT where two transactions cost twice that in round trips; each round trip is a
// socket write, the fleet process's largest cost on PostgreSQL). Each request's unknown pieces are looked up and
// inserted in one statement each, not one per piece. Piece ids are remembered per session once their transaction has
// committed: a rolled-back id is never reused.
import { createHash } from 'node:crypto';
import { UsageError } from '../../shared/index.js';
import type { RequestLogTable } from '../contract.js';
import {
  CACHE_LIMIT,
  SESSIONS_CACHED,
  assembleRequest,
  encodePiece,
  toRecord,
  type RequestRow,
} from '../request-log.js';
import type { RequestRecord, RequestRecordInput, StoredRequest } from '../request-types.js';
import type { MessageRange } from '../types.js';
import type { PgConnection, Sql } from './connection.js';
import type { PgGroupCommit } from './group-commit.js';

const recordColumns = 'id, session_id, turn, round, attempt, model, outcome, created_at';

/** One request on its way: its id and the pieces its transaction stored, known once it has committed. */
interface RequestWrite {
  id: number;
  fresh: Map<string, number>;
  run: (sql: Sql) => Promise<void>;
}

export interface PgRequestLogOptions {
  now: () => number;
  redact: ((text: string) => string) | undefined;
  /** Told when a deferred write (recordSoon) fails; it is dropped otherwise. */
  onDeferredError: (error: unknown) => void;
  /** The store's group commit, shared with the transcripts and records. */
  group: PgGroupCommit;
}

export class PgRequestLog implements RequestLogTable {
  /** Per session: text as handed in → the id of its (redacted) piece. */
  private readonly known = new Map<string, Map<string, number>>();
  private readonly queue: PgGroupCommit;
  private readonly redact: (text: string) => string;

  constructor(
    private readonly db: PgConnection,
    private readonly options: PgRequestLogOptions,
  ) {
    this.queue = options.group;
    this.redact = options.redact ?? ((text) => text);
  }

  record(input: RequestRecordInput): Promise<number> {
    const write = this.writeOf(input);
    return new Promise((resolve, reject) => {
      this.queue.add({
        run: write.run,
        committed: () => {
          this.remember(input.sessionId, write.fresh);
          resolve(write.id);
        },
        failed: reject,
      });
    });
  }

  recordSoon(input: RequestRecordInput): void {
    const write = this.writeOf(input);
    this.queue.add({
      run: write.run,
      committed: () => this.remember(input.sessionId, write.fresh),
      failed: this.options.onDeferredError,
    });
  }

  /** Resolves once every request handed in so far is written (or its failure reported). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  async list(sessionId: string, range: MessageRange = {}): Promise<RequestRecord[]> {
    await this.flush();
    const rows = await this.db.rows<RequestRow>(
      `SELECT ${recordColumns} FROM requests
       WHERE session_id = $1 AND ($2::bigint IS NULL OR turn >= $2) AND ($3::bigint IS NULL OR turn <= $3)
       ORDER BY id`,
      [sessionId, range.fromTurn ?? null, range.toTurn ?? null],
    );
    return rows.map(toRecord);
  }

  async count(sessionId: string): Promise<number> {
    await this.flush();
    const [row] = await this.db.rows<{ n: number }>('SELECT COUNT(*) AS n FROM requests WHERE session_id = $1', [
      sessionId,
    ]);
    return row?.n ?? 0;
  }

  async load(id: number): Promise<StoredRequest> {
    await this.flush();
    const [row] = await this.db.rows<RequestRow>(
      `SELECT ${recordColumns}, message_ids, tools_id, recipe, inputs FROM requests WHERE id = $1`,
      [id],
    );
    if (!row) throw new UsageError(`no stored model request with id ${id}`);
    const ids = JSON.parse(row.message_ids) as number[];
    const bodies = await this.db.rows<{ id: number; body: Buffer }>(
      'SELECT id, body FROM context_blobs WHERE id = ANY($1::bigint[])',
      [[...ids, row.tools_id]],
    );
    return assembleRequest(id, row, bodies);
  }

  /** The write of one request; it may run twice (alone, after its batch failed), so it starts afresh each time. */
  private writeOf(input: RequestRecordInput): RequestWrite {
    const createdAt = input.createdAt ?? this.options.now();
    const write: RequestWrite = {
      id: 0,
      fresh: new Map(),
      run: async (sql) => {
        write.fresh = new Map();
        const texts = [...input.messages, input.tools];
        const ids = await this.pieceIds(sql, { texts, known: this.sessionCache(input.sessionId), fresh: write.fresh });
        const [row] = await sql.rows<{ id: number }>(
          `INSERT INTO requests (session_id, turn, round, attempt, model, message_ids, tools_id, recipe, inputs, outcome,
             created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
          [
            input.sessionId,
            input.turn,
            input.round,
            input.attempt,
            input.model,
            JSON.stringify(ids.slice(0, -1)),
            ids[ids.length - 1],
            input.recipe === undefined ? null : this.redact(input.recipe),
            input.inputs === undefined ? null : this.redact(input.inputs),
            input.outcome,
            createdAt,
          ],
        );
        write.id = row?.id ?? 0;
      },
    };
    return write;
  }

  /**
   * The piece id of each text: from the session's cache, else by hash — found, or stored now (redacted first:
   * secrets never reach the database). Runs inside the request's transaction.
   */
  private async pieceIds(
    sql: Sql,
    options: { texts: readonly string[]; known: Map<string, number>; fresh: Map<string, number> },
  ): Promise<number[]> {
    const { known, fresh } = options;
    const wanted = new Map<string, { text: string; digest: Buffer; json: string }>();
    for (const text of options.texts) {
      if (known.has(text) || fresh.has(text)) continue;
      const json = this.redact(text);
      const digest = createHash('sha256').update(json).digest();
      wanted.set(text, { text, digest, json });
    }
    if (wanted.size > 0) {
      const byHash = await storePieces(sql, [...wanted.values()]);
      for (const piece of wanted.values()) fresh.set(piece.text, byHash.get(piece.digest.toString('hex')) ?? 0);
    }
    return options.texts.map((text) => known.get(text) ?? fresh.get(text) ?? 0);
  }

  /** Pieces of a committed request join its session's cache (started afresh when full). */
  private remember(sessionId: string, fresh: Map<string, number>): void {
    const known = this.sessionCache(sessionId);
    if (known.size + fresh.size > CACHE_LIMIT) known.clear();
    for (const [text, pieceId] of fresh) known.set(text, pieceId);
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
}

/** Piece ids by hex hash: the ones stored already found, the others inserted (another writer's meanwhile read). */
async function storePieces(
  sql: Sql,
  pieces: ReadonlyArray<{ digest: Buffer; json: string }>,
): Promise<Map<string, number>> {
  const byHash = new Map<string, number>();
  const note = (rows: ReadonlyArray<{ id: number; hash: Buffer }>): void => {
    for (const row of rows) byHash.set(row.hash.toString('hex'), row.id);
  };
  const lookUp = async (digests: Buffer[]): Promise<void> =>
    note(await sql.rows('SELECT id, hash FROM context_blobs WHERE hash = ANY($1::bytea[])', [digests]));
  const unique = [...new Map(pieces.map((piece) => [piece.digest.toString('hex'), piece])).values()];
  await lookUp(unique.map((piece) => piece.digest));
  const missing = unique.filter((piece) => !byHash.has(piece.digest.toString('hex')));
  if (missing.length === 0) return byHash;
  note(
    await sql.rows(
      `INSERT INTO context_blobs (hash, body) SELECT * FROM unnest($1::bytea[], $2::bytea[])
       ON CONFLICT (hash) DO NOTHING RETURNING id, hash`,
      [missing.map((piece) => piece.digest), missing.map((piece) => encodePiece(piece.json))],
    ),
  );
  const raced = missing.filter((piece) => !byHash.has(piece.digest.toString('hex')));
  if (raced.length > 0) await lookUp(raced.map((piece) => piece.digest));
  return byHash;
}
