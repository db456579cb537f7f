// What the browser tests share: Debian's Chromium (skipped where it is missing, never on CI), the screenshots folder,
// a poll for a condition, a real `skipper fleet` on an embedded minimolt whose captains are waited for until they have
// played, and a real `skipper web` on the same home with the tokened URL it prints.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { Store } from '../../internal/store/index.js';
import { repoRoot, runCli, type CliRun } from '../fakes/cli-process.js';

export const CHROMIUM = process.env.SKIPPER_CHROMIUM ?? '/usr/bin/chromium';
/** Chromium is required on CI (a missing one fails the suite there); elsewhere its tests are skipped without it. */
export const canRun = existsSync(CHROMIUM) || process.env.CI === 'true';
export const SHOTS = join(repoRoot, 'docs', 'screenshots');

/** Polls `probe` every 100 ms until it gives a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes `text` as the home's fleet.yaml and starts `skipper fleet` on it. */
export function startFleet(home: string, text: string): CliRun {
  const file = join(home, 'fleet.yaml');
  writeFileSync(file, text);
  return runCli(['fleet', file], { home });
}

/** Waits until `count` stored sessions have more than `snapshots` snapshots each (they have played that far). */
export async function untilPlayed(
  store: Store,
  options: { count: number; snapshots: number; what: string; timeoutMs?: number },
): Promise<void> {
  await until(
    options.what,
    async () => {
      let ready = 0;
      for (const summary of await store.listSessions())
        if ((await store.snapshots(summary.session.id)).length > options.snapshots) ready += 1;
      return ready === options.count ? true : undefined;
    },
    options.timeoutMs,
  );
}

/** `skipper web` on the home, polling every 200 ms, and the URL it printed with its token. */
export async function startWeb(home: string): Promise<{ web: CliRun; url: string }> {
  const web = runCli(['web', '--port', '0', '--poll-ms', '200'], { home });
  const [, url] = (await web.waitFor(/Open (http:\/\/\S+\?token=\S+)/)) as [string, string];
  return { web, url };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
