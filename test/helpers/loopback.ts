import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test server listening on a free loopback port: its origin, and a close that drops open connections. */
export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** Binds `server` to 127.0.0.1 port 0 and reads the port back. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
