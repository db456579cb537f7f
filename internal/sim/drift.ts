// `skipper serve --drift SEED`: minimolt answering the way a game that changes every week does. The real SpaceMolt
// went from v0.547 to v0.644 in three months: tables gained columns (v0.548's `crew`), answers were reworded, a map
// format nobody has published. A client that reads only the answers it has seen stops playing at the first change;
// drift makes that change happen here, on purpose, from a seed: the same seed gives the same game version.
//
// What one drift changes (each picked by the seed, all applied to every answer of the kind):
// - table columns renamed (to names a reader may or may not know), reordered, and extra ones added;
// - one table left out (the status's deposits or hold, get_system's lanes, get_poi's deposits);
// - get_map in a format no reader knows (always: no real get_map text has been published);
// - refusals in words instead of `Error: code: message`;
// - the login greeting in another shape, with a 32-hex or UUID session id;
// - the status in transit as `IN TRANSIT (jump) | From: A → To: B | ETA: 2 ticks`;
// - JSON answers (the /mcp face) with keys renamed, extra keys and one key left out.
// The game underneath is the same: drift changes words, never rules.
import { createSeededRng, type MmMapDetails, type Rng } from '../spacemolt/index.js';
import type { SimError } from './sim-error.js';

/** Tables a drift may leave out, by their title line. */
export type DroppableTable = 'resources' | 'cargo' | 'connections';

export interface DriftPlan {
  readonly seed: number;
  /** Column renames, by the column's own name (applied to every table that has it). */
  readonly renames: Readonly<Record<string, string>>;
  /** Columns appear in a seeded order rather than the usual one. */
  readonly shuffle: boolean;
  /** Columns added to every table, with their (constant) cell. */
  readonly extraColumns: ReadonlyArray<readonly [string, string]>;
  readonly droppedTable: DroppableTable;
  readonly mapFormat: 'prose' | 'indented';
  readonly greeting: 'short-hex' | 'uuid';
  /** JSON keys renamed (the /mcp face). */
  readonly jsonRenames: Readonly<Record<string, string>>;
  /** One JSON key left out wherever it appears. */
  readonly jsonDropped: string;
}

/** Renames a moving game might make, per column: some a reader could guess, some it cannot. */
const COLUMN_RENAMES: Readonly<Record<string, readonly string[]>> = {
  id: ['ref', 'uid', 'poi'],
  system_id: ['dest', 'lane_to', 'system'],
  name: ['label', 'nm', 'designation'],
  type: ['poi_kind', 'what', 'cls'],
  base: ['facility', 'svc', 'has_base'],
  distance: ['span', 'gu', 'dist'],
  best_buy: ['px_buy', 'bid', 'buy_at'],
  best_sell: ['px_sell', 'ask', 'sell_at'],
  item_id: ['sku', 'good', 'item'],
  qty: ['n', 'quantity', 'held'],
  richness: ['yield_grade', 'density', 'r'],
  remaining: ['reserve', 'left', 'stock'],
  resource: ['mineral', 'ore', 'resource_id'],
};

const EXTRA_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['crew', '0'],
  ['faction', '-'],
  ['updated', 'now'],
  ['flags', ''],
];

/** JSON key renames a moving game might make: some a reader could guess, some it cannot. */
const KEY_RENAMES: Readonly<Record<string, readonly string[]>> = {
  security_status: ['security', 'sec_rating', 'safety'],
  pois: ['points_of_interest', 'bodies', 'places'],
  best_buy: ['bid', 'buy_price', 'px_buy'],
  best_sell: ['ask', 'sell_price', 'px_sell'],
  cargo_used: ['cargo', 'hold_used', 'load'],
  has_base: ['base', 'has_station', 'dockable'],
  connections: ['lanes', 'links', 'neighbors'],
  type: ['kind', 'category_type', 'what'],
};
const DROPPABLE_KEYS = ['security_status', 'has_base', 'empire', 'speed', 'distance', 'best_sell', 'max_hull'] as const;
const DROPPABLE_TABLES: readonly DroppableTable[] = ['resources', 'cargo', 'connections'];

/** The game version a drift seed stands for: every choice made once, here. */
export function driftPlan(seed: number): DriftPlan {
  const rng = createSeededRng(seed);
  const renames: Record<string, string> = {};
  for (const [column, options] of Object.entries(COLUMN_RENAMES))
    if (rng.chance(0.5)) renames[column] = rng.pick(options);
  const jsonRenames: Record<string, string> = {};
  for (const [key, options] of Object.entries(KEY_RENAMES)) if (rng.chance(0.5)) jsonRenames[key] = rng.pick(options);
  const extras = [...EXTRA_COLUMNS].filter(() => rng.chance(0.5));
  return {
    seed,
    renames,
    shuffle: rng.chance(0.7),
    extraColumns: extras.length > 0 ? extras : [EXTRA_COLUMNS[0] as readonly [string, string]],
    droppedTable: rng.pick(DROPPABLE_TABLES),
    mapFormat: rng.pick(['prose', 'indented'] as const),
    greeting: rng.pick(['short-hex', 'uuid'] as const),
    jsonRenames,
    jsonDropped: rng.pick(DROPPABLE_KEYS),
  };
}

/** One line saying what a drift changes, for the serve banner and logs. */
export function describeDrift(plan: DriftPlan): string {
  const renamed = Object.entries(plan.renames).map(([from, to]) => `${from}→${to}`);
  return [
    `columns renamed ${renamed.length > 0 ? renamed.join(', ') : '(none)'}`,
    plan.shuffle ? 'reordered' : 'in order',
    `extra ${plan.extraColumns.map(([name]) => name).join(', ')}`,
    `${plan.droppedTable} table left out`,
    `map as ${plan.mapFormat}`,
    'refusals in words',
    `greeting with a ${plan.greeting === 'uuid' ? 'UUID' : '32-hex'} session id`,
    `JSON keys renamed ${Object.entries(plan.jsonRenames)
      .map(([from, to]) => `${from}→${to}`)
      .join(', ')}, ${plan.jsonDropped} left out`,
  ].join('; ');
}

const HEADER_CELL = /^[a-z][a-z0-9_]*$/;
const TABLE_TITLES: Readonly<Record<DroppableTable, RegExp>> = {
  resources: /^Resources \(/,
  cargo: /^Cargo \(/,
  connections: /^Connections \(/,
};

export class Drift {
  private readonly rng: Rng;

  constructor(readonly plan: DriftPlan) {
    this.rng = createSeededRng(plan.seed + 1);
  }

  /** A successful answer's text as this game version writes it. */
  text(op: string, text: string, details?: unknown): string {
    if (op === 'get_map') return this.map(details as MmMapDetails | undefined) ?? text;
    if (op === 'login' || op === 'login_token' || op === 'register') return this.greeting(text);
    const lines = this.dropTable(text.split('\n'));
    return this.transit(this.tables(lines)).join('\n');
  }

  /** A session id in this version's shape (the real ones are most likely 32 hex digits; UUIDs are common elsewhere). */
  sessionId(): string {
    if (this.plan.greeting === 'short-hex') return this.rng.hex(32);
    const hex = this.rng.hex(32);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  }

  /** A sale that sold nothing as the live server sometimes answers it: an error, with a comma (`Sold 0 Gold Ore for
   * 0cr, 33 unsold (no buyers)`); undefined for any other answer. */
  noBuyersRefusal(text: string): string | undefined {
    const match = /^(Sold 0 .+? for 0cr)\. (.+ unsold \(no buyers\))\.?$/.exec(text.trim());
    return match ? `${match[1]}, ${match[2]}` : undefined;
  }

  /** A refusal in words, as the live server words several of them (no `Error: code:`). */
  refusal(error: SimError, context: { transitTo?: string; transitSeconds?: number }): string {
    const worded = WORDED[error.code]?.(error.message, context);
    // Codes with no known wording keep the message, without the code: a reader must do with the words.
    return worded ?? `Error: ${capitalise(error.message)}`;
  }

  /** JSON answer (the /mcp face) as this version writes it: its keys renamed, and get_map in a shape no reader
   * knows (the map nobody has published). */
  answer(op: string, value: Record<string, unknown>, details?: unknown): unknown {
    if (op === 'get_map') {
      const prose = this.map(details as MmMapDetails | undefined);
      if (prose) return { galaxy: prose.split('\n') };
    }
    return this.json(value);
  }

  /** JSON (the /mcp face) as this version names its keys. */
  json(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.json(item));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (key === this.plan.jsonDropped) continue;
      out[this.plan.jsonRenames[key] ?? key] = this.json(inner);
    }
    if (this.plan.extraColumns.length > 0 && 'id' in out) out[this.plan.extraColumns[0]?.[0] ?? 'crew'] = 0;
    return out;
  }

  private greeting(text: string): string {
    const username = /(?:Welcome back, |Username: )([^!\n]+)/.exec(text)?.[1]?.trim() ?? 'pilot';
    const password = /^Password: (\S+)$/m.exec(text)?.[1];
    const session = /Session ID: (\S+)/.exec(text)?.[1] ?? this.sessionId();
    const lines = [`Authenticated as ${username}.`];
    if (password) lines.push(`Your password (shown once, keep it safe): ${password}`);
    lines.push(this.plan.greeting === 'uuid' ? `session_id: ${session}` : `Session ID: ${session}`);
    lines.push('Pass your session_id with every call. Fly safe.');
    return lines.join('\n');
  }

  private dropTable(lines: string[]): string[] {
    const title = TABLE_TITLES[this.plan.droppedTable];
    const at = lines.findIndex((line) => title.test(line));
    if (at < 0) return lines;
    let end = at + 1;
    while (end < (lines.length ?? 0) && (lines[end] ?? '').includes('\t')) end += 1;
    return [...lines.slice(0, at), ...lines.slice(end)];
  }

  private tables(lines: string[]): string[] {
    const out: string[] = [];
    let order: number[] | undefined;
    for (const line of lines) {
      const cells = line.split('\t');
      const header = cells.length >= 2 && cells.every((cell) => HEADER_CELL.test(cell.trim()));
      if (header) {
        order = this.order(cells.length);
        const renamed = cells.map((cell) => this.plan.renames[cell] ?? cell);
        out.push([...order.map((index) => renamed[index]), ...this.plan.extraColumns.map(([name]) => name)].join('\t'));
        continue;
      }
      if (order && line.includes('\t')) {
        out.push(
          [...order.map((index) => cells[index] ?? ''), ...this.plan.extraColumns.map(([, cell]) => cell)].join('\t'),
        );
        continue;
      }
      order = undefined;
      out.push(line);
    }
    return out;
  }

  /** Column order for a table of `width` columns: the same for every table of that width in this version. */
  private order(width: number): number[] {
    const order = Array.from({ length: width }, (_, index) => index);
    if (!this.plan.shuffle) return order;
    const rng = createSeededRng(this.plan.seed * 31 + width);
    for (let index = width - 1; index > 0; index -= 1) {
      const other = rng.int(0, index);
      [order[index], order[other]] = [order[other] as number, order[index] as number];
    }
    return order;
  }

  /** minimolt's `In transit: jump to Name (id), N tick(s) remaining` as the live server's transit line. */
  private transit(lines: string[]): string[] {
    const header = lines[0] ?? '';
    const from = header.split(' | ').at(-1)?.trim() ?? '';
    return lines.map((line) => {
      const match = /^In transit: (jump|travel) to (.+?) \([^)]*\), (\d+) tick\(s\) remaining$/.exec(line);
      if (!match) return line;
      return `IN TRANSIT (${match[1]}) | From: ${from} → To: ${match[2]} | ETA: ${match[3]} ticks`;
    });
  }

  /** get_map in a shape no reader knows. */
  private map(details: MmMapDetails | undefined): string | undefined {
    if (!details) return undefined;
    const name = new Map(details.systems.map((system) => [system.id, system.name]));
    if (this.plan.mapFormat === 'prose') {
      return [
        `The galaxy has ${details.systems.length} known systems.`,
        ...details.systems.map(
          (system) =>
            `• ${system.name}${system.empire ? ` [${system.empire}]` : ''}: lanes to ${system.connections
              .map((id) => name.get(id) ?? id)
              .join(', ')}${system.has_station ? '; a station' : ''}.`,
        ),
      ].join('\n');
    }
    return [
      'GALAXY',
      ...details.systems.flatMap((system) => [
        `  ${system.name}`,
        `    reach: ${system.connections.map((id) => name.get(id) ?? id).join(' / ')}`,
      ]),
    ].join('\n');
  }
}

type Worder = (message: string, context: { transitTo?: string; transitSeconds?: number }) => string;

/** The live server's words for refusals it does not code (Cringely/spacemolt-harness test/failures.test.ts). */
const WORDED: Readonly<Record<string, Worder>> = {
  action_pending: () => 'Another action is already in progress for this player',
  in_transit: (_message, context) =>
    `Your ship is mid-travel to ${context.transitTo ?? 'its destination'} (~${context.transitSeconds ?? 10}s until arrival)`,
  no_resources: () => 'nothing to mine here',
  not_docked: () => 'You are not docked at a station.',
  docked: () => 'You cannot do that while docked. Undock first.',
  already_docked: (message) => capitalise(message),
  no_cargo_space: () => 'Your cargo hold is full.',
  invalid_poi: (message) => capitalise(message.replace(/^you are already at (\S+)$/, 'You are already at $1.')),
};

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
