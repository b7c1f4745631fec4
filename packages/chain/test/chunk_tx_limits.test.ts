// A chain with nearcore's runtime at protocol 86 under a burst of transfers. prepare_transactions
// (chain/chain/src/runtime/mod.rs) stops once the gas burnt converting transactions reaches the
// chunk's transaction gas limit, process_tx_limit = max_tx_gas 500 Tgas when uncongested
// (parameters.snap), checked before each transaction, so the one crossing it is in: a transfer
// burns action_receipt_creation + action_transfer send fees, 108_059_500_000 + 115_123_062_500 =
// 223_182_562_500 gas, and 2241 transfers are the first to reach 500 Tgas. The rest wait for the
// next chunk. The chunk then runs its local receipts (signer = receiver) while under the 1 Pgas
// chunk gas limit; the one left is delayed, and the next chunk header's congestion info reports it
// (runtime lib.rs apply: delayed receipts' congestion gas and borsh bytes).
//
// prepare_transactions also records what checking the transactions reads of the state (each
// signer's account and access key, with the trie nodes on their paths) and stops once that passes
// new_transactions_validation_state_size_soft_limit, 572,864 bytes at protocol 86: with 2,400
// signers of their own, that comes before the gas limit.
import { type Chain, type Signer, trieStorage } from '@nearlite/chain';
import { decodeSignedTransaction, sha256, type Transaction, toHex } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import { Trie, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import {
  openProtocol86Chain,
  poolTransaction,
  protocol86Localnet,
} from '../../../test/helpers/protocol86_chain.js';
import { ProvenBytes } from '../../../test/helpers/proven_bytes.js';

const TRANSFER_GAS = 223_182_562_500n;

/** Pools a transfer of 1 yocto from `signerId` to test.near, signed with `signer`'s key. */
function poolTransfer(
  chain: Chain,
  signer: Signer,
  signerId: string,
  nonce: bigint,
  actions: Transaction['actions'] = [{ type: 'Transfer', deposit: 1n }],
): void {
  poolTransaction(chain, signer, signerId, 'test.near', nonce, actions);
}

/** Adds alice.test.near to the genesis, with `amount` yocto and the validator's key at nonce 0. */
function withAlice<R extends ReturnType<typeof protocol86Localnet>['raw']>(
  raw: R,
  publicKey: string,
  amount: bigint,
): R {
  const account = {
    amount: amount.toString(),
    locked: '0',
    code_hash: '11111111111111111111111111111111',
    storage_usage: 182,
  };
  raw.records.push({ Account: { account_id: 'alice.test.near', account } });
  raw.records.push({
    AccessKey: {
      account_id: 'alice.test.near',
      public_key: publicKey,
      access_key: { nonce: 0, permission: 'FullAccess' },
    },
  });
  raw.total_supply = (BigInt(raw.total_supply) + amount).toString();
  return raw;
}

t.test('a chunk takes transactions up to its gas limit and reports its delayed receipts', async (t) => {
  const { raw, signer } = protocol86Localnet();
  const chain = await openProtocol86Chain(raw, signer, await Store.memory());
  const N = 2300;
  for (let nonce = 1; nonce <= N; nonce++) poolTransfer(chain, signer, 'test.near', BigInt(nonce));
  const chunkOf = (hash: Uint8Array) => {
    const [header] = chain.chainStore.blockChunkHeaders(hash)!;
    return { header: header!, chunk: chain.chainStore.chunk(header!.chunkHash)! };
  };

  const first = chunkOf((await chain.produceBlock()).hash);
  t.equal(first.chunk.transactions.length, 2241, 'up to the transfer that reaches 500 Tgas');
  t.equal(chain.pool.size, N - 2241, 'the rest wait in the pool');

  const second = chunkOf((await chain.produceBlock()).hash);
  t.equal(second.chunk.transactions.length, N - 2241, 'and go into the next chunk');
  // The first chunk burnt 2241 conversions, then ran local receipts until 1 Pgas was reached:
  // after 2239 it is under, the 2240th crosses, the 2241st is delayed.
  t.ok(2241n * TRANSFER_GAS + 2239n * TRANSFER_GAS < 10n ** 15n);
  t.ok(2241n * TRANSFER_GAS + 2240n * TRANSFER_GAS >= 10n ** 15n);
  t.same(second.header.inner.congestionInfo, {
    delayedReceiptsGas: TRANSFER_GAS,
    bufferedReceiptsGas: 0n,
    // ReceiptV0: three ids of 4+9 bytes, receipt id 32, tag 1, ed25519 key 33, gas price 16, two
    // empty vecs 8, one Transfer 4+1+16.
    receiptBytes: 150n,
    // One shard: all_shards[(height + 0) % 1].
    allowedShard: 0,
  });
  t.same(first.header.inner.congestionInfo.delayedReceiptsGas, 0n, 'the genesis chunk delayed nothing');
});

t.test('two busy keys share a full chunk, one transaction of each in turn', async (t) => {
  const { raw, signer, key } = protocol86Localnet();
  const chain = await openProtocol86Chain(
    withAlice(raw, key.public_key, 10n ** 30n),
    signer,
    await Store.memory(),
  );
  // All of test.near's first, then all of alice's: nearcore's pool iterator still goes round the keys.
  for (const signerId of ['test.near', 'alice.test.near']) {
    for (let nonce = 1; nonce <= 1500; nonce++) poolTransfer(chain, signer, signerId, BigInt(nonce));
  }
  const [header] = chain.chainStore.blockChunkHeaders((await chain.produceBlock()).hash)!;
  const chunk = chain.chainStore.chunk(header!.chunkHash)!;
  t.equal(chunk.transactions.length, 2241, 'the gas limit, as for one key');
  const signers = chunk.transactions.map((b) => decodeSignedTransaction(b).transaction.signerId);
  t.same(signers.slice(0, 4), ['test.near', 'alice.test.near', 'test.near', 'alice.test.near'], 'in turn');
  t.equal(signers.filter((s) => s === 'test.near').length, 1121, 'the first key one more than the second');
});

t.test('a key whose transaction is refused takes its next one in the same turn', async (t) => {
  const { raw, signer, key } = protocol86Localnet();
  // 10 NEAR: a transfer of 20 passes the pool (nothing checks it there) and is refused by the chunk.
  const chain = await openProtocol86Chain(
    withAlice(raw, key.public_key, 10n * 10n ** 24n),
    signer,
    await Store.memory(),
  );
  poolTransfer(chain, signer, 'alice.test.near', 1n, [{ type: 'Transfer', deposit: 20n * 10n ** 24n }]);
  poolTransfer(chain, signer, 'test.near', 1n);
  poolTransfer(chain, signer, 'alice.test.near', 2n);
  poolTransfer(chain, signer, 'test.near', 2n);
  const [header] = chain.chainStore.blockChunkHeaders((await chain.produceBlock()).hash)!;
  const chunk = chain.chainStore.chunk(header!.chunkHash)!;
  const taken = chunk.transactions.map((b) => {
    const tx = decodeSignedTransaction(b).transaction;
    return `${tx.signerId}#${tx.nonce}`;
  });
  // Turns: alice's (nonce 1 refused, nonce 2 taken), test.near's (1), test.near's again (2).
  t.same(taken, ['alice.test.near#2', 'test.near#1', 'test.near#2']);
  t.equal(chain.pool.size, 0, 'the refused one is not put back');
});

t.test('a chunk stops taking transactions once their checks record 572,864 bytes of state', async (t) => {
  const { key, raw, signer } = protocol86Localnet();
  const N = 2400;
  // Names spread over the trie as real ones are, keys with nonces of their own.
  const id = (i: number) => `${toHex(sha256(new Uint8Array([i >> 8, i & 0xff]))).slice(0, 12)}.test.near`;
  for (let i = 0; i < N; i++) {
    const amount = (10n ** 24n + BigInt(i)).toString();
    const account = {
      amount,
      locked: '0',
      code_hash: '11111111111111111111111111111111',
      storage_usage: 182,
    };
    raw.records.push({ Account: { account_id: id(i), account } });
    raw.records.push({
      AccessKey: {
        account_id: id(i),
        public_key: key.public_key,
        access_key: { nonce: i, permission: 'FullAccess' },
      },
    });
    raw.total_supply = (BigInt(raw.total_supply) + BigInt(amount)).toString();
  }
  // A real LevelDB on disk, as a node's.
  const store = await Store.open(t.testdir());
  t.teardown(() => store.close());
  const chain = await openProtocol86Chain(raw, signer, store);
  const head = chain.head().hash;
  for (let i = 0; i < N; i++) poolTransfer(chain, signer, id(i), BigInt(i) + 1n);

  // What nearcore's rule takes, from the trie the chunk starts from: before each transaction, the
  // distinct node and value bytes on the paths of the signers so far, against the limit.
  const trie = new Trie(trieStorage(store), chain.chainStore.chunkExtra(head, 0)!.stateRoot);
  const proven = new ProvenBytes(trie);
  let want = N;
  for (let i = 0; i < N; i++) {
    if (proven.size > 572_864) {
      want = i;
      break;
    }
    proven.add(trieKeyAccount(id(i)));
    proven.add(trieKeyAccessKey(id(i), signer.publicKey));
  }
  t.ok(want < 2241, `the state limit binds before the gas limit: ${want} transfers, ${proven.size} bytes`);

  const [header] = chain.chainStore.blockChunkHeaders((await chain.produceBlock()).hash)!;
  const chunk = chain.chainStore.chunk(header!.chunkHash)!;
  t.equal(chunk.transactions.length, want, 'the chunk takes the transfers up to the one crossing it');
  t.equal(chain.pool.size, N - want, 'the rest wait in the pool');
  const [next] = chain.chainStore.blockChunkHeaders((await chain.produceBlock()).hash)!;
  t.equal(chain.chainStore.chunk(next!.chunkHash)!.transactions.length, N - want, 'for the next chunk');
});

t.test('a burst of deployments: the chunk runs them until their compute reaches its limit', async (t) => {
  // parameters.snap at 86, sender = receiver: converting one costs action_receipt_creation send_sir
  // 108_059_500_000 + action_deploy_contract send_sir 184_765_750_000 + 6_812_999 a byte; running
  // it, 108_059_500_000 of execution and the deployment's execution compute, 20 Tgas + 250 Mgas a
  // byte (its gas: 184_765_750_000 + 64_572_944 a byte). The chunk's limit, 1 Pgas, bounds compute.
  const code = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0); // (module)
  const L = BigInt(code.length);
  const convert = 108_059_500_000n + 184_765_750_000n + 6_812_999n * L;
  const run = 108_059_500_000n + 20_000_000_000_000n + 250_000_000n * L;
  const runGas = 108_059_500_000n + 184_765_750_000n + 64_572_944n * L;
  const N = 60;
  let ran = 0n;
  while (BigInt(N) * convert + ran * run < 10n ** 15n) ran++;
  t.equal(ran, 49n, 'the 49th crosses the limit and runs, by gas all 60 would');
  t.ok(BigInt(N) * (convert + runGas) < 10n ** 15n);

  const { raw, signer } = protocol86Localnet();
  const store = await Store.open(t.testdir());
  t.teardown(() => store.close());
  const chain = await openProtocol86Chain(raw, signer, store);
  for (let nonce = 1; nonce <= N; nonce++) {
    poolTransfer(chain, signer, 'test.near', BigInt(nonce), [{ type: 'DeployContract', code }]);
  }
  const headerOf = (hash: Uint8Array) => chain.chainStore.blockChunkHeaders(hash)![0]!;
  const first = await chain.produceBlock();
  t.equal(chain.chainStore.chunk(headerOf(first.hash).chunkHash)!.transactions.length, N, 'all taken');
  const second = await chain.produceBlock();
  // ReceiptV0 of a DeployContract: three ids of 4+9 bytes, receipt id 32, tag 1, key 33, gas price
  // 16, two empty vecs 8, one action: vec length 4, tag 1, code 4+8.
  t.same(headerOf(second.hash).inner.congestionInfo, {
    delayedReceiptsGas: BigInt(N - 49) * runGas,
    bufferedReceiptsGas: 0n,
    receiptBytes: BigInt(N - 49) * 146n,
    allowedShard: 0,
  });
  t.equal(
    chain.chainStore.chunkExtra(first.hash, 0)!.gasUsed,
    BigInt(N) * convert + ran * runGas,
    'gas as gas',
  );
  const third = await chain.produceBlock();
  t.equal(headerOf(third.hash).inner.congestionInfo.delayedReceiptsGas, 0n, 'the rest ran in the next chunk');
});
