// Builds the benchmark chain through the node's own transaction path (real signed transactions over
// RPC), and caches the home between runs.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions as A, Account, JsonRpcProvider, KeyPair, KeyPairSigner } from 'near-api-js';
import { cliSync, rpc, startNode } from './node_process.js';
import { sendBatch, sendStream } from './sender.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
/** The parameters that shape the chain (the rest say how long cases run). */
const SHAPE = ['accounts', 'holders', 'transfers', 'denseTransfers', 'blocks'];

export async function buildDataset(dir, p, log) {
  const home = join(dir, `home-${p.name}`);
  const marker = join(home, 'dataset.json');
  if (existsSync(marker)) {
    const meta = JSON.parse(readFileSync(marker, 'utf8'));
    // A dataset built with other parameters is built again.
    if (meta.version === 6 && SHAPE.every((k) => meta.params[k] === p[k])) return { home, meta };
  }
  rmSync(home, { recursive: true, force: true });
  cliSync(['init', '--home', home, '--shards', '4', '--chain-id', 'bench', '--epoch-length', '1000']);
  let node = await startNode(home, ['--block-time', '10', '--archive', '--sandbox']);
  try {
    const provider = new JsonRpcProvider({ url: node.url });
    const key = JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8'));
    const root = new Account('test.near', provider, key.secret_key);
    const rootKey = KeyPair.fromString(key.secret_key);
    const shared = KeyPair.fromRandom('ed25519');
    const signer = new KeyPairSigner(shared);
    // Accounts spread over the four shards by their first letter; all share one key for the bench.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const accounts = Array.from({ length: p.accounts }, (_, i) => `${letters[i % 26]}${i}.test.near`);
    const t0 = performance.now();
    for (let i = 0; i < accounts.length; i += 100) {
      const batch = accounts.slice(i, i + 100);
      await sendBatch(
        node.url,
        rootKey,
        'test.near',
        batch.map((id) => ({
          receiverId: id,
          actions: [A.createAccount(), A.transfer(10n * NEAR), A.addFullAccessKey(shared.getPublicKey())],
        })),
      );
      log(`  accounts ${Math.min(i + 100, accounts.length)}/${accounts.length}`);
    }
    // The fungible token with many holders.
    const { ensureContract } = await import('../../scripts/fetch-contracts.mjs');
    const ft = KeyPair.fromRandom('ed25519');
    await root.createAccount({
      newAccountId: 'token.test.near',
      publicKey: ft.getPublicKey(),
      nearToTransfer: 1000n * NEAR,
    });
    const token = new Account('token.test.near', provider, new KeyPairSigner(ft));
    await token.deployContract(new Uint8Array(readFileSync(ensureContract('fungible_token.wasm'))));
    await root.callFunction({
      contractId: 'token.test.near',
      methodName: 'new',
      args: { owner_id: 'test.near', total_supply: '1000000000000' },
      gas: 100n * TGAS,
    });
    const holders = accounts.slice(0, p.holders);
    for (let i = 0; i < holders.length; i += 50) {
      await sendBatch(
        node.url,
        rootKey,
        'test.near',
        holders.slice(i, i + 50).map((h) => ({
          receiverId: 'token.test.near',
          actions: [
            A.functionCall('transfer', { new_owner_id: h, amount: String(1000 + i) }, 30n * TGAS, 0n),
          ],
        })),
      );
      log(`  token holders ${Math.min(i + 50, holders.length)}/${holders.length}`);
    }
    // A contract with ~40 kB of state.
    const big = new Account(accounts[1], provider, signer);
    await rpc(node.url, 'sandbox_patch_state', {
      records: Array.from({ length: 400 }, (_, i) => ({
        Data: {
          account_id: accounts[1],
          data_key: Buffer.from(`k${String(i).padStart(5, '0')}`).toString('base64'),
          value: Buffer.alloc(80, i).toString('base64'),
        },
      })),
    });
    void big;
    // History: transfers between accounts.
    const txHashes = [];
    for (let i = 0; i < p.transfers; i += 100) {
      const res = await sendBatch(
        node.url,
        shared,
        accounts[(i / 100) % accounts.length],
        Array.from({ length: Math.min(100, p.transfers - i) }, (_, j) => ({
          receiverId: accounts[(i + j + 1) % accounts.length],
          actions: [A.transfer(1000n + BigInt(j))],
        })),
      );
      for (const r of res) txHashes.push([r.transaction_outcome.id, r.transaction.signer_id]);
      log(`  transfers ${Math.min(i + 100, p.transfers)}/${p.transfers}`);
    }
    await node.stop();
    node = null;
    // Empty blocks up to the dataset's height, one at every height (a sandbox fast-forward would
    // skip most of them, as nearcore's does): the timer at 1 ms.
    node = await startNode(home, ['--block-time', '1', '--archive', '--sandbox']);
    for (let head = 0; head < p.blocks; await new Promise((r) => setTimeout(r, 500))) {
      head = (await rpc(node.url, 'block', { finality: 'final' })).header.height;
      log(`  blocks ${Math.min(head, p.blocks)}/${p.blocks}`);
    }
    await node.stop();
    node = null;
    // A dense stretch last: blocks of a few hundred transfers each (200 ms blocks, four signers
    // sending without pause), where a follower's pace is set by its cost per state change, not per
    // block. Its heights are kept in the meta for the follower case.
    node = await startNode(home, ['--block-time', '200', '--archive', '--sandbox']);
    const denseFrom = (await rpc(node.url, 'block', { finality: 'optimistic' })).header.height + 1;
    const perSigner = Math.ceil(p.denseTransfers / 4);
    await Promise.all(
      [0, 1, 2, 3].map((s) =>
        sendStream(
          node.url,
          shared,
          accounts[s + 2],
          Array.from({ length: perSigner }, (_, j) => ({
            receiverId: accounts[(s * perSigner + j + 7) % accounts.length],
            actions: [A.transfer(2000n + BigInt(j))],
          })),
        ),
      ),
    );
    const denseTo = (await rpc(node.url, 'block', { finality: 'final' })).header.height;
    log(`  dense transfers ${perSigner * 4} (heights ${denseFrom}..${denseTo})`);
    const meta = {
      version: 6,
      dense: { from: denseFrom, to: denseTo },
      params: p,
      accounts,
      holders,
      txHashes,
      bigStateAccount: accounts[1],
      sharedSecret: shared.toString(),
      buildSeconds: Math.round((performance.now() - t0) / 1000),
      head: (await rpc(node.url, 'block', { finality: 'final' })).header.height,
    };
    writeFileSync(marker, JSON.stringify(meta));
    return { home, meta };
  } finally {
    await node?.stop();
  }
}
