// A TCP relay to a local server that can stop passing bytes, in both directions, and start again:
// from the client's side, a server that has stalled (stopped, swapping, behind a dead network path)
// while its connections stay open.
import { connect, createServer, type Socket } from 'node:net';

export interface StallProxy {
  readonly port: number;
  /** Holds every byte from now on, of open connections and of new ones. */
  stall(): void;
  /** Passes what was held, in order, and relays again. */
  resume(): void;
  close(): Promise<void>;
}

export async function stallProxy(targetPort: number): Promise<StallProxy> {
  let stalled = false;
  let held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const relay = (from: Socket, to: Socket): void => {
    from.on('data', (d) => {
      if (stalled) held.push(() => to.write(d));
      else to.write(d);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      const pending = held;
      held = [];
      for (const send of pending) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
