// A `skipper serve` for a benchmark: started as a person would (a fixed registration code, seed 42, no registration
// limit of its own), its /mcp/v2 URL read from the banner, stopped after the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
/** The built command (dist/cmd/skipper.js), from the built bench or from its source (the fault suite imports it). */
export const benchCli = here.endsWith('.ts')
  ? resolve(here, '../../../dist/cmd/skipper.js')
  : resolve(here, '../../../cmd/skipper.js');
/** The registration code of every benchmark server. */
export const BENCH_CODE = 'bench-fleet-code';

/** The face users play (and the bench must measure): SpaceMolt's grouped tools at /mcp/v2. */
export const BENCH_FACE = '/mcp/v2';

/**
 * The game URL `skipper serve`'s banner tells a player to use ("… --game URL …"), once its line is complete; undefined
 * before. It must be the /mcp/v2 face: a banner that offers another is an error, never a reason to measure the flat
 * /mcp face instead.
 */
export function gameUrlOfBanner(banner: string): string | undefined {
  const found = / --game (http:\/\/\S+)\s/.exec(banner)?.[1];
  if (found === undefined) return undefined;
  if (new URL(found).pathname !== BENCH_FACE)
    throw new Error(
      `bench: skipper serve offers --game ${found}, not the ${BENCH_FACE} face users play; nothing else is measured`,
    );
  return found;
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

export interface Serve {
  child: ChildProcess;
  url: string;
  base: string;
}

export async function startServe(home: string, tickMs: number): Promise<Serve> {
  const child = spawn(
    process.execPath,
    [
      benchCli,
      'serve',
      '--port',
      '0',
      '--tick-ms',
      String(tickMs),
      '--registration-code',
      BENCH_CODE,
      '--seed',
      '42',
      '--registrations-per-minute',
      '0',
    ],
    { env: { ...process.env, SKIPPER_HOME: home, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      try {
        const found = gameUrlOfBanner(out);
        if (found) done(found);
      } catch (error) {
        child.kill('SIGTERM');
        fail(error as Error);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () =>
      fail(new Error(`skipper serve exited before its banner named the ${BENCH_FACE} face: ${out}`)),
    );
  });
  process.stderr.write(`bench fleet: playing ${url} (the ${BENCH_FACE} face)\n`);
  return { child, url, base: new URL(url).origin };
}

/** A fresh `skipper serve` for `run`, stopped after it. */
export async function withServe<T>(
  options: { home: string; tickMs: number },
  run: (serve: Serve) => Promise<T>,
): Promise<T> {
  const serve = await startServe(options.home, options.tickMs);
  try {
    return await run(serve);
  } finally {
    serve.child.kill('SIGTERM');
    await exited(serve.child).catch(() => undefined);
  }
}
