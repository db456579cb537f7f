// The worker thread's side of the synchronous PostgreSQL bridge (bridge.ts), as JavaScript source run with
// `new Worker(source, { eval: true })`: a string, so it runs the same from the TypeScript sources (tests) and from
// dist/ without a build step that copies a file. It holds one node-postgres Client (one connection: a transaction
// and session-level advisory locks live on it), answers each request on the reply port, then flips the shared flag
// the main thread waits on. When the thread ends for any reason it clears the `alive` cell first, so a waiting main
// thread learns at once instead of waiting for its timeout.

/** Cells of the shared Int32Array. */
export const bridgeCells = { done: 0, alive: 1 } as const;

export const bridgeWorkerSource = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const state = new Int32Array(workerData.shared);
const port = workerData.port;
// BIGINT (20) and NUMERIC (1700, what SUM of a BIGINT gives) as JS numbers: Skipper's integers (epoch ms, counts)
// are all below 2^53, as they were in SQLite.
pg.types.setTypeParser(20, (text) => Number(text));
pg.types.setTypeParser(1700, (text) => Number(text));

let client;
let broken = null;

function finish(reply) {
  port.postMessage(reply);
  Atomics.store(state, ${bridgeCells.done}, 1);
  Atomics.notify(state, ${bridgeCells.done});
}

function describe(error) {
  return {
    message: error && error.message ? error.message : String(error),
    code: error && error.code ? String(error.code) : undefined,
    detail: error && error.detail ? String(error.detail) : undefined,
    constraint: error && error.constraint ? String(error.constraint) : undefined,
  };
}

async function connect(request) {
  client = new pg.Client({ connectionString: request.url, application_name: 'skipper' });
  client.on('error', (error) => { broken = error; });
  await client.connect();
  if (request.statementTimeoutMs) await client.query('SET statement_timeout = ' + Number(request.statementTimeoutMs));
  if (request.schema) {
    await client.query('CREATE SCHEMA IF NOT EXISTS ' + request.schema);
    await client.query('SET search_path TO ' + request.schema);
  }
  const info = await client.query('SELECT pg_backend_pid() AS pid');
  return { rows: info.rows };
}

async function query(step) {
  const reply = await client.query({
    text: step.sql,
    values: step.params || [],
    rowMode: step.raw ? 'array' : undefined,
    // A named statement is parsed once per connection, then only bound: half the server's work for a small query.
    name: step.name,
  });
  // Several statements in one text (a migration) give one result each: the last is the answer.
  const result = Array.isArray(reply) ? reply[reply.length - 1] : reply;
  return { rows: result.rows || [], changes: result.rowCount || 0 };
}

async function script(request) {
  const results = [];
  for (const step of request.steps) results.push(await query(step));
  return { results };
}

async function handle(request) {
  if (request.op === 'connect') return connect(request);
  if (broken) throw broken;
  if (request.op === 'query') return query(request);
  if (request.op === 'script') return script(request);
  if (request.op === 'close') { await client.end(); return {}; }
  if (request.op === 'die') { setImmediate(() => { throw new Error('worker died on request'); }); return new Promise(() => {}); }
  if (request.op === 'hang') return new Promise(() => {});
  throw new Error('unknown bridge op ' + request.op);
}

process.on('exit', () => {
  Atomics.store(state, ${bridgeCells.alive}, 0);
  Atomics.notify(state, ${bridgeCells.done});
});

port.on('message', (request) => {
  handle(request).then(
    (result) => finish({ id: request.id, ok: true, result }),
    (error) => finish({ id: request.id, ok: false, error: describe(error) }),
  );
});
`;
