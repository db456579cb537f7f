// A throwaway PostgreSQL cluster a test may stop and start (the shared server of SKIPPER_TEST_DATABASE_URL serves
// other test files at once and must never go away): the server's own binaries (pg_ctl on PATH or Debian's
// /usr/lib/postgresql/*/bin), initdb with trust rules into a temp folder, a free loopback port, `pg_ctl -m fast stop`
// and start again on the same port. As root, initdb and pg_ctl run as the postgres user (PostgreSQL refuses root), the
// way .ci/run starts the CI server.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder of pg_ctl and initdb, or undefined when this host has no PostgreSQL server. */
export function findPgBin(): string | undefined {
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).trim();
    if (onPath) return dirname(onPath);
  } catch {
    // not on PATH: Debian keeps the binaries per version
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions[versions.length - 1];
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

/** A port nobody listens on now (bound once on port 0, then given back). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export class PgCluster {
  private running = false;

  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
    private readonly asRoot: boolean,
  ) {}

  /** initdb into a temp folder and start the server on a free loopback port. */
  static async start(bin: string): Promise<PgCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-pg-'));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), -1);
    const cluster = new PgCluster(bin, dir, await freePort(), asRoot);
    await cluster.pg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
    await cluster.up();
    return cluster;
  }

  /** The URL of its `postgres` database as user postgres (with a password the trust rules never check, if given). */
  url(password?: string): string {
    const url = new URL(`postgres://postgres@127.0.0.1:${this.port}/postgres`);
    if (password !== undefined) url.password = password;
    return url.toString();
  }

  /** Starts the server (again), waiting until it accepts connections. */
  async up(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`;
    const log = join(this.dir, 'log');
    await this.pg('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', log, '-w', 'start']);
    this.running = true;
  }

  /** Stops the server as an operator's restart does: every session ended at once, new ones refused. */
  async down(): Promise<void> {
    await this.pg('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
    this.running = false;
  }

  /** Stops the server if it runs and removes its folder. */
  async destroy(): Promise<void> {
    if (this.running) await this.down().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** One of the server's programs, as the postgres user when this process is root; asynchronous, so the test's own
   * proxies keep serving meanwhile. */
  private async pg(program: string, args: string[]): Promise<void> {
    const path = join(this.bin, program);
    if (!this.asRoot) {
      await run(path, args);
      return;
    }
    await run('su', ['postgres', '-c', [path, ...args].map(quote).join(' ')]);
  }
}
