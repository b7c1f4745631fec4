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
    let sent = 0n;
    /** Answers that were errors, not a kill: a test-side mistake or a refusal. */
    const refused: string[] = [];
    const finals = new Map<number, string>();
    const forwarded: unknown[] = [];
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
      // Above every nonce sent so far: what a kill left answered INCLUDED and not yet run is pooled
      // again at the start, and the key's nonce does not count it until its block.
      let nonce = BigInt(ak.body.result!.nonce);
      if (nonce < sent) nonce = sent;
      const send = async () => {
        sent = ++nonce;
        const tx = createTransaction(
          'test.near',
          pk,
          'test.near',
          sent,
          [A.transfer(1n)],
          baseDecode(final.hash),
        );
        const { txHash, signedTransaction } = await signer.signTransaction(tx);
        const r = await n.rpc<{ final_execution_status: string }>('send_tx', {
          signed_tx_base64: Buffer.from(signedTransaction.encode()).toString('base64'),
          wait_until: 'INCLUDED',
        });
        if (r.body.result) acknowledged.push(baseEncode(txHash));
        else refused.push(JSON.stringify(r.body.error));
      };
      await Promise.all(Array.from({ length: 4 }, send));
      // More in flight while the node dies: whatever was not acknowledged may or may not land.
      const fastForward =
        cycle % 2 === 1 ? n.rpc('sandbox_fast_forward', { delta_height: 3 + (cycle % 5) }) : null;
      const inFlight = Promise.all([
        ...Array.from({ length: 2 }, () => send().catch(() => undefined)),
        fastForward?.catch(() => undefined),
        ...Array.from({ length: 2 }, () => send().catch(() => undefined)),
      ]);
      for (let h = Math.max(1, final.height - 5); h <= final.height; h++) {
        const b = (await n.rpc<Block>('block', { block_id: h })).body.result;
        if (b) finals.set(h, b.header.hash);
      }
      // Every fourth cycle the kill comes after the fast-forward has answered, so some surely ran.
      if (fastForward && cycle % 4 === 1) forwarded.push((await fastForward).body);
      await new Promise((r) => setTimeout(r, (cycle * 7) % 40));
      await n.kill();
      await inFlight;
    }
    node = await startNode(home, ['--block-time', '30', '--sandbox']);
    const n = node;
    const lost: string[] = [];
    for (const hash of acknowledged) {
      // Run, not only known: one acknowledged from chunks made ahead of a block the kill stopped is
      // stored, and would be known even if no block ever ran it.
      const r = await n.rpc('tx', {
        tx_hash: hash,
        sender_account_id: 'test.near',
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
      if (r.body.error) lost.push(`${hash}: ${JSON.stringify(r.body.error.cause)}`);
    }
    t.ok(
      acknowledged.length >= CYCLES * 4,
      `${acknowledged.length} transactions acknowledged${refused.length > 0 ? `; refused: ${refused.slice(0, 3).join(' ')}` : ''}`,
    );
    t.same(lost, [], 'every acknowledged transaction has run');
    t.same(
      forwarded.map((b) => (b as { result?: unknown }).result),
      Array.from({ length: Math.ceil((CYCLES - 1) / 4) }, () => ({})),
      `the fast-forwards awaited before their kill all ran: ${JSON.stringify(forwarded)}`,
    );
    const changed: number[] = [];
    for (const [h, hash] of finals) {
      const b = await n.rpc<{ header: { hash: string } }>('block', { block_id: h });
      if (b.body.result?.header.hash !== hash) changed.push(h);
    }
    t.same(changed, [], `${finals.size} final blocks seen, none re-produced differently`);
    await n.stop();
    node = null;
  },
);
