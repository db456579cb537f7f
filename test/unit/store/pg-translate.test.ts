// SQLite statements as the store writes them → PostgreSQL: each rewrite the PostgreSQL backend depends on.
import { describe, expect, it } from 'vitest';
import { translate } from '../../../internal/store/pg/translate.js';
import { parsePgUrl, redactPgUrl } from '../../../internal/store/pg/open-pg.js';

describe('translate', () => {
  it('numbers ? placeholders in order and reuses a named one', () => {
    expect(translate('SELECT * FROM t WHERE a = ? AND b = ?')).toMatchObject({
      text: 'SELECT * FROM t WHERE a = $1 AND b = $2',
      params: [0, 1],
    });
    expect(translate('SELECT * FROM t WHERE a = @x OR b = @x AND c = @y')).toMatchObject({
      text: 'SELECT * FROM t WHERE a = $1 OR b = $1 AND c = $2',
      params: ['x', 'y'],
    });
  });

  it('leaves ? and @ inside quoted text and :: casts alone', () => {
    expect(translate(`SELECT '?@x' AS q, value::bigint FROM t WHERE a = ?`).text).toBe(
      `SELECT '?@x' AS q, value::bigint FROM t WHERE a = $1`,
    );
  });

  it('turns INSERT OR REPLACE into an upsert on the table key', () => {
    const { text } = translate('INSERT OR REPLACE INTO turns (session_id, turn, outcome) VALUES (?, ?, ?)');
    expect(text).toBe(
      'INSERT INTO turns (session_id, turn, outcome) VALUES ($1, $2, $3) ON CONFLICT (session_id, turn) DO UPDATE SET outcome = EXCLUDED.outcome',
    );
    expect(() => translate('INSERT OR REPLACE INTO unknown_table (a) VALUES (?)')).toThrow(/conflictKeys/);
  });

  it('returns the identity of an insert (lastInsertRowid), only for tables that have one', () => {
    expect(translate('INSERT INTO memory (text) VALUES (?)')).toMatchObject({
      text: 'INSERT INTO memory (text) VALUES ($1) RETURNING id',
      returnsId: true,
    });
    expect(translate('INSERT INTO sessions (id) VALUES (?)').returnsId).toBe(false);
  });

  it('rewrites json_each, SUM over a comparison, an unnamed subquery and a NULL-tested parameter', () => {
    expect(translate('SELECT id FROM b WHERE id IN (SELECT value FROM json_each(?))').text).toContain(
      'jsonb_array_elements_text(CAST($1 AS jsonb))',
    );
    expect(translate(`SELECT SUM(d.verdict IN ('a', 'b')) AS n FROM d`).text).toBe(
      `SELECT SUM(CASE WHEN d.verdict IN ('a', 'b') THEN 1 ELSE 0 END) AS n FROM d`,
    );
    expect(translate('SELECT * FROM (SELECT * FROM s LIMIT ?) ORDER BY turn').text).toBe(
      'SELECT * FROM (SELECT * FROM s LIMIT $1) AS sub ORDER BY turn',
    );
    expect(translate('SELECT 1 WHERE (@from IS NULL OR turn >= @from)').text).toBe(
      'SELECT 1 WHERE (CAST($1 AS BIGINT) IS NULL OR turn >= $1)',
    );
  });
});

describe('database URLs', () => {
  it('takes the schema parameter out of the URL and checks it', () => {
    expect(parsePgUrl('postgres://u@h:5/db?schema=fleet_a')).toMatchObject({
      url: 'postgres://u@h:5/db',
      schema: 'fleet_a',
    });
    expect(() => parsePgUrl('postgres://u@h/db?schema=Bad;drop')).toThrow(/plain lower-case name/);
  });

  it('hides the password', () => {
    expect(redactPgUrl('postgresql://me:s3cret@host/db')).toBe('postgresql://me:***@host/db');
    expect(redactPgUrl('postgres://me@host/db')).toBe('postgres://me@host/db');
  });
});
