// Listening on loopback and closing for good, for the fakes that serve HTTP: close() drops kept-alive connections
// too, so a test's server never holds the process (or a port a restarted server wants) open.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (`port` 0 = any free port) and resolves with the port. */
export async function listenLocally(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes the transports first (each may still hold a stream), then every connection, then the server. */
export async function closeLocalServer(
  server: Server,
  transports: Iterable<{ close(): Promise<void> }> = [],
): Promise<void> {
  for (const transport of transports) await transport.close().catch(() => {});
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
