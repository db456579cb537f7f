// Waiting for the person to stop a long-running command (Ctrl+C or a SIGTERM), for the servers `serve` and `web`.

/** Resolves with the signal's name at the first SIGINT or SIGTERM, then stops listening. */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
