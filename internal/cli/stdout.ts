// Writing to a pipe that reads slower than we write. Node queues what the reader has not taken yet and process.exit
// drops that queue: long outputs (export, replay, --json) wait for 'drain' when write() says the queue is full, and
// the program flushes stdout before it exits. A reader that leaves early (`| head`) ends the program quietly.

export interface OutputStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  readonly writableNeedDrain?: boolean;
  readonly destroyed?: boolean;
  once(event: 'drain' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
}

/** Resolves when the stream can take more (or is gone: a closed stream never drains, its error is handled elsewhere). */
export function drained(stream: OutputStream): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
    stream.once('error', done);
  });
}

/** Writes one chunk and waits when the stream's queue is full. */
export async function writeChunk(stream: OutputStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await drained(stream);
}

/** Resolves once everything written so far has left the process (writes complete in order). */
export function flushed(stream: OutputStream): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}

export function isBrokenPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * The reader went away (`skipper export … | head`): what it did not read it did not want. Leave at once, quietly,
 * with the exit code reached so far; any other stream error is reported by `onOther`.
 */
export function leaveQuietlyOnBrokenPipe(
  stream: { on(event: 'error', listener: (error: Error) => void): unknown },
  options: { exit: () => void; onOther: (error: Error) => void },
): void {
  stream.on('error', (error) => {
    if (isBrokenPipe(error)) options.exit();
    else options.onOther(error);
  });
}
