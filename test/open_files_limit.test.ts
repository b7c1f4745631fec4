// Clients that open connections and never finish a request cannot take the descriptors the database
// needs: under an open-file limit of 1,300 the RPC holds at most what LevelDB's 1,000 leave, the rest
// are closed as they come, and blocks and transactions go on.
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { initHome, spawnNearlite, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const LIMIT = 1300;
const HELD = 500;

t.test('connections held open leave the database its descriptors', async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  const args = ['run', '--home', home, '--rpc-addr', '127.0.0.1:0', '--block-time', '100'];
  const node = await spawnNearlite(args, 30_000, undefined, undefined, LIMIT);
  t.teardown(() => node.kill());
  const { port } = new URL(node.url);
  const sockets: Socket[] = [];
  t.teardown(() => {
    for (const s of sockets) s.destroy();
  });
  let closedByNode = 0;
  for (let i = 0; i < HELD; i++) {
    const s = connect(Number(port), '127.0.0.1');
    s.on('error', () => {});
    s.on('close', () => closedByNode++);
    // A request whose body never comes.
    s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    sockets.push(s);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const descriptors = readdirSync(`/proc/${node.proc.pid}/fd`).length;
  const cap = LIMIT - 1100;
  t.ok(closedByNode >= HELD - cap, `the connections above the cap of ${cap} were closed (${closedByNode})`);
  t.ok(descriptors <= LIMIT - 1000, `the node holds ${descriptors} descriptors: LevelDB's 1,000 stay free`);
  t.notMatch(node.logs(), /block production stopped/);
  for (const s of sockets) s.destroy();
  const { body } = await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' });
  await waitForHeight(node, body.result!.header.height + 3);
  t.pass('blocks go on');
});
