// SIGKILL at any moment under transaction load, 25 times over, every other time with a sandbox
// fast-forward under way (whose first block is at another height than the chunks made ahead of it):
// no transaction acknowledged at INCLUDED is ever lost, and no final block's hash ever changes.
import {
  actions as A,
  baseDecode,
  baseEncode,
  createTransaction,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { initHome, type RunningNode, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const CYCLES = 25;

t.test(
  `${CYCLES} SIGKILLs under load lose no acknowledged transaction and change no final block`,
  async (t) => {
    const home = tempDir(t);
    initHome(home);
    const key = readKeyFile(home);
    const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
    const pk = await signer.getPublicKey();
    const acknowledged: string[] = [];
    const finals = new Map<number, string>();
    let node: RunningNode | null = null;
    t.teardown(() => node?.kill());
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      node = await startNode(home, ['--block-time', '30', '--sandbox']);
      const n = node;
      await waitForHeight(n, 3);
      type Block = { header: { height: number; hash: string } };
      const final = (await n.rpc<Block>('block', { finality: 'final' })).body.result!.header;
      const ak = await n.rpc<{ nonce: number }>('query', {
        request_type: 'view_access_key',
        account_id: 'test.near',
        public_key: pk.toString(),
        finality: 'optimistic',
      });
      let nonce = BigInt(ak.body.result!.nonce);
      const send = async () => {
        const tx = createTransaction(
          'test.near',
          pk,
          'test.near',
          ++nonce,
          [A.transfer(1n)],
          baseDecode(final.hash),
        );
        const { txHash, signedTransaction } = await signer.signTransaction(tx);
        const r = await n.rpc<{ final_execution_status: string }>('send_tx', {
          signed_tx_base64: Buffer.from(signedTransaction.encode()).toString('base64'),
          wait_until: 'INCLUDED',
        });
        if (r.body.result) acknowledged.push(baseEncode(txHash));
      };
      await Promise.all(Array.from({ length: 4 }, send));
      // More in flight while the node dies: whatever was not acknowledged may or may not land.
      const inFlight = Promise.all([
        ...Array.from({ length: 2 }, () => send().catch(() => undefined)),
        cycle % 2 === 1
          ? n.rpc('sandbox_fast_forward', { delta_height: 3 + (cycle % 5) }).catch(() => undefined)
          : undefined,
        ...Array.from({ length: 2 }, () => send().catch(() => undefined)),
      ]);
      for (let h = Math.max(1, final.height - 5); h <= final.height; h++) {
        const b = (await n.rpc<Block>('block', { block_id: h })).body.result;
        if (b) finals.set(h, b.header.hash);
      }
      await new Promise((r) => setTimeout(r, (cycle * 7) % 40));
      await n.kill();
      await inFlight;
    }
    node = await startNode(home, ['--block-time', '30', '--sandbox']);
    const n = node;
    let lost = 0;
    for (const hash of acknowledged) {
      // Run, not only known: one acknowledged from chunks made ahead of a block the kill stopped is
      // stored, and would be known even if no block ever ran it.
      const r = await n.rpc('tx', {
        tx_hash: hash,
        sender_account_id: 'test.near',
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
      if (r.body.error) lost++;
    }
    t.ok(acknowledged.length >= CYCLES * 4, `${acknowledged.length} transactions acknowledged`);
    t.equal(lost, 0, 'every acknowledged transaction has run');
    let changed = 0;
    for (const [h, hash] of finals) {
      const b = await n.rpc<{ header: { hash: string } }>('block', { block_id: h });
      if (b.body.result?.header.hash !== hash) changed++;
    }
    t.equal(changed, 0, `${finals.size} final blocks seen, none re-produced differently`);
    await n.stop();
    node = null;
  },
);
