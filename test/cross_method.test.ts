// The read methods agree with one another about one chain. After a random workload on four shards,
// every height is read, on the producer and on a follower of it, through each method that names it,
// and what one method says of the chain
// must be what the others say: a block by height and by hash, a chunk by hash and by block and shard,
// the block's gas price, its changes under both names, each change beside the state as of that block
// (an account's balance, a key's nonce and permission, a deletion), each receipt a chunk lists beside
// the receipt asked alone, and each transaction beside its status: the chunk's entry, the block that
// included it, the same outcomes with receipts, and the receipts that trace back to it.
import t, { type Test } from 'tap';
import { localChain } from './helpers/chain.js';
import { inFlight, settledTop } from './helpers/follow_compare.js';
import { type RunningNode, rawRpc, startFollower, waitForHeight } from './helpers/node.js';
import { randomWorkload } from './helpers/workload.js';

type Json = { result?: Record<string, unknown>; error?: { cause: { name: string } } };

interface ChunkHeader {
  chunk_hash: string;
  shard_id: number;
  height_included: number;
}
interface BlockView {
  header: { height: number; hash: string; gas_price: string };
  chunks: ChunkHeader[];
}
interface StateChange {
  type: string;
  account_id: string;
  public_key?: string;
}
interface AccountChange {
  type: string;
  change: { account_id: string; amount?: string; locked?: string; storage_usage?: number };
}
interface KeyChange {
  type: string;
  change: { account_id: string; public_key: string; access_key?: unknown };
}

t.test('every read method says what the others say of the same chain', async (t) => {
  const seed = Number(process.env.CROSS_METHOD_SEED ?? Date.now() % 1_000_000);
  t.comment(`seed ${seed} (CROSS_METHOD_SEED reruns it)`);
  const chain = await localChain(t, { shards: 4, blockTimeMs: 60, archive: true });
  await randomWorkload(chain, seed, 10);
  const top = await settledTop(chain.node);
  await crossCheck(t, chain.node, top, 'the producer');

  // A follower answers from a history of the producer's stream, through read paths of its own.
  const follower = await startFollower(chain.home, chain.node.url, ['--archive']);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, top, 60_000);
  await crossCheck(t, follower, top, 'a follower');
});

async function crossCheck(t: Test, node: RunningNode, top: number, who: string): Promise<void> {
  const problems: string[] = [];
  const counts = { blocks: 0, chunks: 0, chunkReceipts: 0, accounts: 0, keys: 0, txs: 0, receipts: 0 };
  const ask = async (method: string, params: unknown): Promise<{ text: string; json: Json }> => {
    const { body } = await rawRpc(node.url, method, params);
    return { text: body, json: JSON.parse(body) as Json };
  };
  const differ = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b))
      problems.push(`${what}: ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`);
  };

  await inFlight(top + 1, 4, async (h) => {
    const byHeight = await ask('block', { block_id: h });
    const block = byHeight.json.result as unknown as BlockView | undefined;
    if (!block) return;
    counts.blocks++;
    const { hash } = block.header;
    const byHash = await ask('block', { block_id: hash });
    differ(`#${h} by height and by hash`, byHeight.text, byHash.text);
    const price = await ask('gas_price', { block_id: h });
    differ(`#${h} gas price`, price.json.result?.gas_price, block.header.gas_price);

    for (const header of block.chunks) {
      if (header.height_included !== h) continue;
      counts.chunks++;
      const a = await ask('chunk', { chunk_id: header.chunk_hash });
      const b = await ask('chunk', { block_id: h, shard_id: header.shard_id });
      differ(`#${h}/${header.shard_id} chunk by hash and by block and shard`, a.text, b.text);
      const transactions = (a.json.result?.transactions ?? []) as { hash: string; signer_id: string }[];
      for (const tx of transactions) await checkTransaction(tx, hash, h);
      for (const receipt of (a.json.result?.receipts ?? []) as { receipt_id: string }[]) {
        counts.chunkReceipts++;
        const alone = await ask('EXPERIMENTAL_receipt', { receipt_id: receipt.receipt_id });
        differ(
          `#${h}/${header.shard_id} receipt ${receipt.receipt_id} in the chunk and alone`,
          receipt,
          alone.json.result,
        );
      }
    }

    const changes = await ask('EXPERIMENTAL_changes_in_block', { block_id: h });
    const effects = await ask('block_effects', { block_id: h });
    differ(`#${h} EXPERIMENTAL_changes_in_block and block_effects`, changes.text, effects.text);
    const touched = (changes.json.result?.changes ?? []) as StateChange[];
    for (const c of touched) {
      if (c.type === 'account_touched') await checkAccount(c.account_id, h);
      else if (c.type === 'access_key_touched') await checkKeys(c.account_id, h);
    }
  });

  /** The account's last change in the block is the account as of the block. */
  async function checkAccount(accountId: string, h: number): Promise<void> {
    counts.accounts++;
    const changes = await ask('EXPERIMENTAL_changes', {
      changes_type: 'account_changes',
      account_ids: [accountId],
      block_id: h,
    });
    const list = (changes.json.result?.changes ?? []) as AccountChange[];
    const last = list.at(-1);
    if (!last) {
      problems.push(`#${h} ${accountId}: touched, but no account change`);
      return;
    }
    const view = await ask('query', { request_type: 'view_account', account_id: accountId, block_id: h });
    const same = await ask('EXPERIMENTAL_view_account', { account_id: accountId, block_id: h });
    differ(`#${h} ${accountId}: query view_account and EXPERIMENTAL_view_account`, view.text, same.text);
    if (last.type === 'account_deletion') {
      differ(`#${h} ${accountId}: deleted`, view.json.error?.cause.name, 'UNKNOWN_ACCOUNT');
      return;
    }
    const account = view.json.result ?? {};
    differ(`#${h} ${accountId}: the change's amount`, last.change.amount, account.amount);
    differ(`#${h} ${accountId}: the change's locked`, last.change.locked, account.locked);
    differ(`#${h} ${accountId}: the change's storage`, last.change.storage_usage, account.storage_usage);
  }

  /** Each key's last change in the block is the key as of the block, alone and in the account's list. */
  async function checkKeys(accountId: string, h: number): Promise<void> {
    const changes = await ask('EXPERIMENTAL_changes', {
      changes_type: 'all_access_key_changes',
      account_ids: [accountId],
      block_id: h,
    });
    const lastOf = new Map<string, KeyChange>();
    for (const c of (changes.json.result?.changes ?? []) as KeyChange[]) lastOf.set(c.change.public_key, c);
    const list = await ask('query', {
      request_type: 'view_access_key_list',
      account_id: accountId,
      block_id: h,
    });
    const listed = new Map(
      ((list.json.result?.keys ?? []) as { public_key: string; access_key: unknown }[]).map((k) => [
        k.public_key,
        k.access_key,
      ]),
    );
    for (const [publicKey, c] of lastOf) {
      counts.keys++;
      const single = await ask('EXPERIMENTAL_changes', {
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: accountId, public_key: publicKey }],
        block_id: h,
      });
      const singles = (single.json.result?.changes ?? []) as KeyChange[];
      differ(`#${h} ${accountId} ${publicKey}: the single key's last change`, singles.at(-1), c);
      const view = await ask('query', {
        request_type: 'view_access_key',
        account_id: accountId,
        public_key: publicKey,
        block_id: h,
      });
      if (c.type === 'access_key_deletion') {
        // `query` answers an absent key in nearcore's legacy form, an `error` inside the result.
        const absent = String(view.json.result?.error ?? '');
        differ(
          `#${h} ${accountId} ${publicKey}: deleted`,
          absent,
          `access key ${publicKey} does not exist while viewing`,
        );
        differ(`#${h} ${accountId} ${publicKey}: not listed`, listed.has(publicKey), false);
        continue;
      }
      const { block_height: _h, block_hash: _b, ...key } = view.json.result ?? {};
      differ(`#${h} ${accountId} ${publicKey}: the change's key`, c.change.access_key, key);
      differ(`#${h} ${accountId} ${publicKey}: listed`, listed.get(publicKey), key);
    }
  }

  /**
   * The transaction's outcome is in the block that included it; its answer with receipts has the
   * same outcomes; each receipt it led to traces back to it.
   */
  async function checkTransaction(tx: { hash: string; signer_id: string }, blockHash: string, h: number) {
    counts.txs++;
    const params = { tx_hash: tx.hash, sender_account_id: tx.signer_id, wait_until: 'NONE' };
    const status = await ask('tx', params);
    const result = status.json.result as
      | {
          final_execution_status: string;
          transaction: { hash: string };
          transaction_outcome: { id: string; block_hash: string };
          receipts_outcome: { id: string }[];
        }
      | undefined;
    if (!result) {
      problems.push(`tx ${tx.hash}: ${status.text.slice(0, 200)}`);
      return;
    }
    differ(`tx ${tx.hash}: final`, result.final_execution_status, 'FINAL');
    differ(`tx ${tx.hash}: the chunk's transaction`, result.transaction, tx);
    differ(
      `tx ${tx.hash}: outcome in the block that included it (#${h})`,
      result.transaction_outcome.block_hash,
      blockHash,
    );
    const withReceipts = await ask('EXPERIMENTAL_tx_status', params);
    const r = withReceipts.json.result ?? {};
    differ(`tx ${tx.hash}: the same outcomes with receipts`, r.receipts_outcome, result.receipts_outcome);
    differ(
      `tx ${tx.hash}: the same transaction outcome with receipts`,
      r.transaction_outcome,
      result.transaction_outcome,
    );
    for (const o of result.receipts_outcome) {
      counts.receipts++;
      const back = await ask('EXPERIMENTAL_receipt_to_tx', { receipt_id: o.id });
      differ(`receipt ${o.id} of tx ${tx.hash}: traced back`, back.json.result?.transaction_hash, tx.hash);
    }
  }

  t.same(problems.slice(0, 20), [], `${who}: ${problems.length} disagreements over #0..#${top}`);
  t.ok(counts.txs >= 20, `${who}: compared ${JSON.stringify(counts)}`);
  t.ok(
    counts.accounts >= 20 && counts.keys >= 5 && counts.receipts >= 20 && counts.chunkReceipts >= 5,
    'with accounts, keys and receipts',
  );
}
