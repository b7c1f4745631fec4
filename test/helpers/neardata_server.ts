// A neardata-style HTTP server over a list of blocks, on 127.0.0.1, whose first kept block can be
// raised as a non-archival node's GC raises it: below it, neardata's 404 `BLOCK_HEIGHT_TOO_LOW`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringifyJson } from '@nearlite/primitives';
import type { StreamerMessage } from '@nearlite/stream';

export interface NeardataServer {
  readonly url: string;
  /** Every height asked for by `/v0/block/:h`, in order. */
  readonly asked: number[];
  /** Heights below `height` are collected from now on. */
  collectBelow(height: number): void;
  /** The collected blocks are back (a restored backup). */
  restore(): void;
  /** The final head from now on (the last block at first). */
  setHead(height: number): void;
  close(): Promise<void>;
}

export async function serveNeardata(chain: readonly StreamerMessage[]): Promise<NeardataServer> {
  const byHeight = new Map(chain.map((m) => [m.block.header.height, stringifyJson(m)]));
  const genesisFirst = chain[0]!.block.header.height;
  let head = chain.at(-1)!.block.header.height;
  let first = genesisFirst;
  const asked: number[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    const redirect = (height: number) => res.writeHead(302, { location: `/v0/block/${height}` }).end();
    if (url === '/v0/first_block') return redirect(first);
    if (url === '/v0/last_block/final') return redirect(head);
    const m = /^\/v0\/block\/(\d+)$/.exec(url);
    if (!m) return res.writeHead(404).end();
    const height = Number(m[1]);
    asked.push(height);
    res.setHeader('content-type', 'application/json');
    if (height < first)
      return res
        .writeHead(404)
        .end(JSON.stringify({ error: 'Block height is before the genesis', type: 'BLOCK_HEIGHT_TOO_LOW' }));
    if (height > head)
      return res
        .writeHead(404)
        .end(JSON.stringify({ error: 'The block is not produced yet', type: 'BLOCK_DOES_NOT_EXIST' }));
    return res.end(byHeight.get(height) ?? 'null');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    collectBelow(height) {
      first = height;
    },
    restore() {
      first = genesisFirst;
    },
    setHead(height) {
      head = height;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
