// A keep-alive JSON-RPC client on node:http that keeps every socket it opens. Pools that close spare
// sockets (node's default keeps 256, fetch's fewer) reconnect mid-run, and a burst of reconnects to
// a busy server waits out TCP retransmission timeouts: seconds that would be charged to the node.
import { Agent, request } from 'node:http';

export function rpcClient(url, maxSockets = 1024) {
  const agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const { hostname, port } = new URL(url);
  return (method, params) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'bench', method, params });
      const req = request(
        {
          agent,
          hostname,
          port,
          path: '/',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            try {
              const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              if (parsed.error) reject(new Error(`${method}: ${JSON.stringify(parsed.error)}`));
              else resolve(parsed.result);
            } catch (e) {
              reject(e);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}
