// SQLite statements as the store's modules write them, turned into PostgreSQL ones, so the same modules (session
// table, message log, records, leases, fleets…) run on both backends and cannot drift apart. The dialect gap in
// those statements is small and known: placeholders (`?`, `@name`), INSERT OR REPLACE, the rowid of an insert,
// json_each, SUM over a comparison, a subquery without an alias, a parameter only tested for NULL, a joined column in a GROUP BY. Anything else is sent as written, and the contract
// tests run every statement the store has against a real server.
import { conflictKeys, identityColumns } from './schema.js';

export interface Translated {
  text: string;
  /** Per $n (index n-1): the positional index (number) or the named parameter (string) it takes its value from. */
  params: Array<number | string>;
  /** The INSERT returns its identity column (better-sqlite3's lastInsertRowid). */
  returnsId: boolean;
}

/** Pure and cached by the caller: a statement is translated once, when it is prepared. */
export function translate(sql: string): Translated {
  let text = rewriteUpsert(sql);
  text = text.replace(
    /SELECT value FROM json_each\(\?\)/g,
    'SELECT value::bigint AS value FROM jsonb_array_elements_text(CAST(? AS jsonb))',
  );
  text = text.replace(/SUM\(((?:\w+\.)?\w+ (?:= '[^']*'|IN \([^)]*\)))\)/g, 'SUM(CASE WHEN $1 THEN 1 ELSE 0 END)');
  text = text.replace(/\bLIMIT (\?|@\w+)\)(\s+ORDER BY)/g, 'LIMIT $1) AS sub$2');
  // PostgreSQL must know a parameter's type where it is only tested for NULL; the store's optional bounds
  // (`@from IS NULL OR turn >= @from`) are all integers.
  text = text.replace(/(@\w+) IS NULL/g, 'CAST($1 AS BIGINT) IS NULL');
  // SQLite lets a grouped query show a joined table's column; PostgreSQL wants it grouped (the counterfactual list).
  if (text.includes('s.name AS session_name')) text = text.replace(/GROUP BY c\.id\b/g, 'GROUP BY c.id, s.name');
  const placed = placeholders(text);
  const identity = insertTarget(placed.text);
  const column = identity === undefined ? undefined : identityColumns[identity];
  const returnsId = column !== undefined && !/\bRETURNING\b/i.test(placed.text);
  return {
    text: returnsId ? `${placed.text} RETURNING ${column}` : placed.text,
    params: placed.params,
    returnsId,
  };
}

function insertTarget(sql: string): string | undefined {
  return /^\s*INSERT\s+INTO\s+(\w+)/i.exec(sql)?.[1]?.toLowerCase();
}

/** INSERT OR REPLACE → INSERT … ON CONFLICT (primary key) DO UPDATE every other column (a row has one key here). */
function rewriteUpsert(sql: string): string {
  const match = /^\s*INSERT\s+OR\s+(REPLACE|IGNORE)\s+INTO\s+(\w+)\s*\(([^)]*)\)([\s\S]*)$/i.exec(sql);
  if (!match) return sql;
  const [, mode = '', table = '', columnList = '', rest = ''] = match;
  const key = conflictKeys[table.toLowerCase()];
  if (!key) throw new Error(`no conflict key known for table ${table}: add it to conflictKeys`);
  const columns = columnList.split(',').map((column) => column.trim());
  const head = `INSERT INTO ${table} (${columns.join(', ')})${rest} ON CONFLICT (${key.join(', ')})`;
  if (mode.toUpperCase() === 'IGNORE') return `${head} DO NOTHING`;
  const updates = columns.filter((column) => !key.includes(column)).map((column) => `${column} = EXCLUDED.${column}`);
  return `${head} DO UPDATE SET ${updates.join(', ')}`;
}

/** `?` and `@name` / `:name` → $1…, outside quoted text; a name used twice is one parameter. */
function placeholders(sql: string): { text: string; params: Array<number | string> } {
  const params: Array<number | string> = [];
  const named = new Map<string, number>();
  let positional = 0;
  const text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|[@:]([A-Za-z_]\w*)|::/g, (token, name?: string) => {
    if (token === '?') {
      params.push(positional++);
      return `$${params.length}`;
    }
    if (name === undefined) return token;
    let index = named.get(name);
    if (index === undefined) {
      params.push(name);
      index = params.length;
      named.set(name, index);
    }
    return `$${index}`;
  });
  return { text, params };
}
