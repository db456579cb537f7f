// Stand-ins for a network between the store and PostgreSQL, for the outage and open tests: a TCP proxy that can be
// cut (every connection dropped, new ones refused) and restored, and a server that asks for a password and refuses
// it as PostgreSQL does (SQLSTATE 28P01), for a test server whose own rules trust everyone.
import net from 'node:net';

export class CuttableProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private cut = false;

  private constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      if (this.cut) {
        client.destroy();
        return;
      }
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** The database goes away: every open connection dropped, new ones refused until restore(). */
  cutAll(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A PostgreSQL message: its type byte, then its length (itself included) and body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** Asks every client for a clear-text password, then refuses it (28P01), as a server with md5/scram rules would. */
export async function passwordRefusingServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let step = 0;
    socket.on('data', () => {
      step += 1;
      if (step === 1) {
        const askPassword = Buffer.alloc(4);
        askPassword.writeInt32BE(3, 0);
        socket.write(message('R', askPassword));
        return;
      }
      const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed for user "skipper"'];
      socket.end(message('E', Buffer.from(`${fields.join('\0')}\0\0`, 'utf8')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
