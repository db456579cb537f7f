// Captain leases between fleet workers on a real PostgreSQL: one worker per captain at a time, a captain freed the
// moment its worker's connection ends, live workers counted, and the fence: a worker that lost a captain cannot write
// for it any more (a message, a status row), while a connection that is no worker is not fenced.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CaptainLeases, captainHosts, openStore, type Store } from '../../internal/store/index.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason } from './pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const schemas: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});
afterAll(() => dropSchemas(schemas));

function fleetDatabase(): () => Store {
  const { url, schema } = freshSchemaUrl();
  schemas.push(schema);
  return () => {
    const store = openStore({ path: url });
    stores.push(store);
    return store;
  };
}

function worker(store: Store, name: string): CaptainLeases {
  const leases = new CaptainLeases(store, { fleet: 'f', holder: { host: `host-${name}`, pid: 1, worker: name } });
  leases.join();
  return leases;
}

describe.skipIf(skipReason !== undefined)('captain leases', () => {
  it('one worker per captain; freed when its worker connection ends; the epoch rises on every take', () => {
    const open = fleetDatabase();
    const first = open();
    const second = open();
    const a = worker(first, 'a');
    const b = worker(second, 'b');
    expect(a.liveWorkers()).toBe(2);
    expect(a.tryTake('ada', 'f-ada')?.epoch).toBe(1);
    expect(b.tryTake('ada', 'f-ada')).toBeUndefined();
    expect(b.tryTake('bob', 'f-bob')?.epoch).toBe(1);
    expect(captainHosts(second, 'f').get('ada')?.host).toBe('host-a');
    first.close(); // as a kill -9 would: the server drops the connection and its locks
    expect(b.liveWorkers()).toBe(1);
    const taken = b.tryTake('ada', 'f-ada');
    expect(taken).toMatchObject({ epoch: 2, worker: 'b', host: 'host-b' });
    b.release('bob');
    expect(worker(open(), 'c').tryTake('bob', 'f-bob')?.epoch).toBe(2);
  });

  it('fences a worker that lost its captain: its writes for that captain fail, others pass', () => {
    const open = fleetDatabase();
    const first = open();
    const a = worker(first, 'a');
    a.tryTake('ada', 'f-ada');
    const session = first.createSession({ name: 'f-ada', game: 'embedded', model: 'm' });
    first.append(session.id, { role: 'user', content: 'by a' });
    first.fleets.startFleet({ name: 'f', file: '/f.yaml', pid: 1, host: 'host-a' });
    first.fleets.upsertCaptain('f', 'ada', { sessionName: 'f-ada', model: 'm', state: 'playing' });
    // a loses the lock (as when its connection's locks are dropped) and b takes the captain over.
    a.release('ada');
    const second = open();
    expect(worker(second, 'b').tryTake('ada', 'f-ada')?.epoch).toBe(2);
    expect(() => first.append(session.id, { role: 'user', content: 'late write by a' })).toThrow(
      /no longer this worker's: epoch 2 belongs to host-b/,
    );
    expect(() => first.fleets.upsertCaptain('f', 'ada', { state: 'failed' })).toThrow(/no longer this worker's/);
    second.append(session.id, { role: 'user', content: 'by b' });
    const outsider = open(); // not a worker: `skipper -s f-ada` alone is rule 19's business, not the fence's
    outsider.append(session.id, { role: 'user', content: 'by hand' });
    expect(outsider.messages(session.id).map((message) => message.content)).toEqual(['by a', 'by b', 'by hand']);
  });

  it('refuses to lease on SQLite with what to do', () => {
    const sqlite = openStore({ path: ':memory:' });
    stores.push(sqlite);
    expect(() => new CaptainLeases(sqlite, { fleet: 'f', holder: { host: 'h', pid: 1, worker: 'w' } })).toThrow(
      /--db postgres/,
    );
  });
});
