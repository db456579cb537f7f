// The store on SQLite (rule 21): the contract (contract.ts) over better-sqlite3 in this process. better-sqlite3 is
// synchronous and fast, so each call does its work at once and hands back a settled promise — no thread, no pool; a
// message's append resolves once its INSERT is committed (rule 13), a fleet's appends and records once the group
// commit holding them has. The tables themselves are the SQLite modules beside this folder (session-table.ts,
// message-log.ts, records.ts, memory-store.ts, credentials.ts, request-log.ts, counterfactual-store.ts,
// fleet-store.ts), reached through the engine that owns their one connection (sqlite-store.ts).
import type { MemoryEntry, MemoryInput, MemoryKind, Message } from '../../shared/index.js';
import type {
  CounterfactualTable,
  CredentialTable,
  FleetTable,
  Lease,
  LeaseHolder,
  LeaseTake,
  MemoryTable,
  RequestLogTable,
  Store,
  StoreHealth,
} from '../contract.js';
import type { RequestRecordInput } from '../request-types.js';
import { SqliteEngine, type StoreOptions } from '../sqlite-store.js';
import type {
  AppendableMessage,
  CreateSessionInput,
  MessageRange,
  Session,
  SessionSummary,
  SnapshotInput,
  SnapshotRecord,
  TurnRecord,
  UpdateSessionInput,
  UsagePoint,
  UsageRecordInput,
  UsageTotals,
} from '../types.js';
import { SqliteLeases } from './leases.js';

/** A settled promise of what `run` returns, or of what it throws (so a caller's await sees the error, not a throw). */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

const UP: StoreHealth = { state: 'up' };

export class SqliteStore implements Store {
  readonly backend = 'sqlite' as const;
  readonly path: string;
  readonly memory: MemoryTable;
  readonly credentials: CredentialTable;
  readonly requests: RequestLogTable;
  readonly counterfactuals: CounterfactualTable;
  readonly fleets: FleetTable;
  private readonly engine: SqliteEngine;
  private readonly leaseTable: SqliteLeases;
  private readonly grouped: boolean;

  constructor(options: StoreOptions) {
    this.engine = new SqliteEngine(options);
    this.path = this.engine.path;
    this.grouped = options.groupRecords === true;
    this.leaseTable = new SqliteLeases(this.engine.database, {
      now: options.now ?? Date.now,
      ...(options.processExists ? { processExists: options.processExists } : {}),
    });
    this.memory = memoryTable(this.engine);
    this.credentials = credentialTable(this.engine);
    this.requests = requestTable(this.engine);
    this.counterfactuals = counterfactualTable(this.engine);
    this.fleets = fleetTable(this.engine);
  }

  // ---- sessions ----

  createSession(input: CreateSessionInput): Promise<Session> {
    return settle(() => this.engine.createSession(input));
  }
  getSession(nameOrId: string): Promise<Session> {
    return settle(() => this.engine.getSession(nameOrId));
  }
  findSession(nameOrId: string): Promise<Session | undefined> {
    return settle(() => this.engine.findSession(nameOrId));
  }
  updateSession(nameOrId: string, changes: UpdateSessionInput): Promise<Session> {
    return settle(() => this.engine.updateSession(nameOrId, changes));
  }
  renameSession(nameOrId: string, newName: string): Promise<Session> {
    return settle(() => this.engine.renameSession(nameOrId, newName));
  }
  listSessions(): Promise<SessionSummary[]> {
    return settle(() => this.engine.listSessions());
  }
  deleteSession(nameOrId: string): Promise<boolean> {
    return settle(() => this.engine.deleteSession(nameOrId));
  }

  // ---- messages ----

  append(sessionId: string, message: AppendableMessage): Promise<Message> {
    // A fleet's store commits its appends together, once the event loop has turned; one session's, one each.
    return this.grouped
      ? this.engine.appendCommitted(sessionId, message)
      : settle(() => this.engine.append(sessionId, message));
  }
  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Promise<Message[]> {
    return settle(() => this.engine.appendMany(sessionId, messages));
  }
  messages(sessionId: string, range?: MessageRange): Promise<Message[]> {
    return settle(() => this.engine.messages(sessionId, range));
  }
  async *iterateMessages(sessionId: string, range?: MessageRange): AsyncIterable<Message> {
    yield* this.engine.iterateMessages(sessionId, range);
  }
  messageCount(sessionId: string): Promise<number> {
    return settle(() => this.engine.messageCount(sessionId));
  }
  lastTurn(sessionId: string): Promise<number> {
    return settle(() => this.engine.lastTurn(sessionId));
  }

  // ---- records ----

  recordUsage(input: UsageRecordInput): Promise<void> {
    return settle(() => this.engine.recordUsage(input));
  }
  usageTotals(sessionId: string): Promise<UsageTotals> {
    return settle(() => this.engine.usageTotals(sessionId));
  }
  usageSeries(sessionId: string, options?: { sinceMs?: number }): Promise<UsagePoint[]> {
    return settle(() => this.engine.usageSeries(sessionId, options));
  }
  recordSnapshot(input: SnapshotInput): Promise<void> {
    return settle(() => this.engine.recordSnapshot(input));
  }
  snapshots(sessionId: string, options?: { last?: number }): Promise<SnapshotRecord[]> {
    return settle(() => this.engine.snapshots(sessionId, options));
  }
  recordTurn(input: TurnRecord): Promise<void> {
    return settle(() => this.engine.recordTurn(input));
  }
  turns(sessionId: string): Promise<TurnRecord[]> {
    return settle(() => this.engine.turns(sessionId));
  }

  // ---- leases ----

  takeLease(key: string, holder: LeaseHolder, options: { ttlMs: number }): Promise<LeaseTake> {
    return settle(() => this.leaseTable.take(key, holder, options.ttlMs));
  }
  renewLease(lease: Lease, options: { ttlMs: number }): Promise<Lease | undefined> {
    return settle(() => this.leaseTable.renew(lease, options.ttlMs));
  }
  releaseLease(lease: Lease): Promise<boolean> {
    return settle(() => this.leaseTable.release(lease));
  }
  lease(key: string): Promise<Lease | undefined> {
    return settle(() => this.leaseTable.get(key));
  }
  leases(prefix: string): Promise<Lease[]> {
    return settle(() => this.leaseTable.list(prefix));
  }

  // ---- lifecycle ----

  schemaVersion(): Promise<number> {
    return settle(() => this.engine.schemaVersion());
  }
  flush(): Promise<void> {
    return settle(() => this.engine.flush());
  }
  integrityCheck(): Promise<string[]> {
    return settle(() => this.engine.integrityCheck());
  }
  /** A file in this process: it is there or the store is closed. */
  health(): StoreHealth {
    return UP;
  }
  onHealth(): () => void {
    return () => {};
  }
  close(): Promise<void> {
    return settle(() => this.engine.close());
  }
}

function memoryTable(engine: SqliteEngine): MemoryTable {
  const memory = engine.memory;
  return {
    add: (input: MemoryInput): Promise<MemoryEntry> => settle(() => memory.add(input)),
    list: (captain: string, options?: { kind?: MemoryKind; limit?: number }): Promise<MemoryEntry[]> =>
      settle(() => memory.list(captain, options)),
    get: (id: number) => settle(() => memory.get(id)),
    remove: (id: number) => settle(() => memory.remove(id)),
    clear: (captain: string) => settle(() => memory.clear(captain)),
    touch: (ids: readonly number[]) => settle(() => memory.touch(ids)),
  };
}

function credentialTable(engine: SqliteEngine): CredentialTable {
  const credentials = engine.credentials;
  return {
    get: (gameUrl, username) => settle(() => credentials.get(gameUrl, username)),
    latest: (gameUrl) => settle(() => credentials.latest(gameUrl)),
    put: (gameUrl, username, password) => settle(() => credentials.put(gameUrl, username, password)),
    remove: (gameUrl, username) => settle(() => credentials.remove(gameUrl, username)),
    // SQLite reads the table's change counter on each call: another process's write shows at once.
    passwordList: () => credentials.passwordList(),
    refresh: () => Promise.resolve(),
  };
}

function requestTable(engine: SqliteEngine): RequestLogTable {
  const requests = engine.requests;
  return {
    record: (input: RequestRecordInput) => settle(() => requests.record(input)),
    recordSoon: (input: RequestRecordInput) => requests.recordSoon(input),
    list: (sessionId, range) => settle(() => requests.list(sessionId, range)),
    count: (sessionId) => settle(() => requests.count(sessionId)),
    load: (id) => settle(() => requests.load(id)),
  };
}

function counterfactualTable(engine: SqliteEngine): CounterfactualTable {
  const runs = engine.counterfactuals;
  return {
    create: (input) => settle(() => runs.create(input)),
    addDecision: (id, decision) => settle(() => runs.addDecision(id, decision)),
    finish: (id, status) => settle(() => runs.finish(id, status)),
    list: () => settle(() => runs.list()),
    get: (nameOrId) => settle(() => runs.get(nameOrId)),
    decisions: (id) => settle(() => runs.decisions(id)),
  };
}

function fleetTable(engine: SqliteEngine): FleetTable {
  const fleets = engine.fleets;
  return {
    startFleet: (input) => settle(() => fleets.startFleet(input)),
    stopFleet: (name) => settle(() => fleets.stopFleet(name)),
    setHealth: (name, health) => settle(() => fleets.setHealth(name, health)),
    getFleet: (name) => settle(() => fleets.getFleet(name)),
    listFleets: () => settle(() => fleets.listFleets()),
    upsertCaptain: (fleet, name, fields) => settle(() => fleets.upsertCaptain(fleet, name, fields)),
    writeCaptain: (fleet, name, fields) => settle(() => fleets.writeCaptain(fleet, name, fields)),
    captains: (fleet) => settle(() => fleets.captains(fleet)),
    captain: (fleet, name) => settle(() => fleets.captain(fleet, name)),
    addOrder: (input) => settle(() => fleets.addOrder(input)),
    takeOrders: (fleet) => settle(() => fleets.takeOrders(fleet)),
    addEvent: (input) => settle(() => fleets.addEvent(input)),
    events: (fleet, options) => settle(() => fleets.events(fleet, options)),
    putKnowledge: (input) => settle(() => fleets.putKnowledge(input)),
    knowledge: (fleet, kind) => settle(() => fleets.knowledge(fleet, kind)),
    sessionCostSince: (sessionName, sinceMs) => settle(() => fleets.sessionCostSince(sessionName, sinceMs)),
  };
}
