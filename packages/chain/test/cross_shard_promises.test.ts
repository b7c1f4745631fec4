// Promises between contracts on four shards: a call fans out to one or two contracts (joined with
// promise_and) on any shard, some of which fail or do not exist, and a callback on the caller reads
// what each returned. Data receipts cross shards to callbacks postponed until they come, a joined
// callback holding one result while the other is on its way; a small chunk gas limit holds
// receipts back in delayed queues. Some callers delete themselves while callbacks wait for them.
// After every block the header's total_supply is the money on the chain, and every account's
// storage_usage what its records add up to. At the end every callback of a caller still there has
// run once, with the results its calls gave (nearcore's promise_result: 1 successful, 2 failed);
// nothing is left waiting on any shard, nor anything of a deleted caller. Of all that the blocks
// changed, the state changes stored are those of accounts, code, keys and contract data.
import type { Chain } from '@nearlite/chain';
import { toHex } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import { parseTrieKey, TrieKeyCol, trieKeyAccount, trieKeyContractData } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import {
  accountTrie,
  deployToUsers,
  keysLeft,
  keysOf,
  produceCheckingSupply,
  Sender,
  USERS,
  withUsers,
} from './four_shards.js';
import { type Call, goArgs, RELAY } from './relay_contract.js';

/** What done writes for `call`: work fails where it traps or its account does not exist. */
function expectedRecord(call: Call): Uint8Array {
  const n = call.targets.length;
  const out = new Uint8Array(1 + 9 * n);
  out[0] = n;
  call.targets.forEach(({ accountId, fail }, j) => {
    const ok = !fail && USERS.includes(accountId);
    out[1 + j] = ok ? 1 : 2;
    if (ok) out.set(call.id, 1 + n + 8 * j);
  });
  return out;
}

// Callers that delete themselves while their callbacks wait: one on each shard, never a target.
const LEAVING = ['dave', 'jack', 'pete', 'walt'];

/** The keys of `col` under one account, on its shard. */
function ownRows(chain: Chain, blockHash: Uint8Array, accountId: string, col: number): Uint8Array[] {
  const prefix = new Uint8Array([col, ...new TextEncoder().encode(accountId), 0x2c]);
  return [...accountTrie(chain, accountId, blockHash).iterPrefix(prefix)].map(([k]) => k);
}

t.test('callbacks meet their data across four shards', async (t) => {
  const random = rng(Number(process.env.SUPPLY_FUZZ_SEED ?? 5));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // Epochs of 1000 blocks: no reward is minted during the run.
  const { raw, signer } = withUsers(LEAVING, 4, 1000);
  // A few calls a chunk: the rest wait in the delayed queue.
  (raw as typeof raw & { gas_limit: number }).gas_limit = 5_000_000_000_000;
  const chain = await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true });
  const sender = new Sender(chain, signer);
  t.equal(
    new Set(LEAVING.map((id) => chain.layout.accountIdToShardId(id))).size,
    4,
    'a leaving caller on each shard',
  );
  t.ok(
    await deployToUsers(chain, sender, await RELAY, [...USERS, ...LEAVING]),
    'every account has the contract',
  );
  const exists = (id: string, blockHash = chain.head().hash) =>
    accountTrie(chain, id, blockHash).get(trieKeyAccount(id)) !== undefined;

  let postponedSeen = false;
  let partialSeen = false;
  let delayedSeen = false;
  let orphanSeen = false;
  const changedCols = new Set<number>();
  const check = async (label: string): Promise<boolean> => {
    const { header, mismatch } = await produceCheckingSupply(chain);
    if (mismatch) {
      t.fail(`${label}, ${mismatch}`);
      return false;
    }
    for (const shardId of chain.layout.shardIds) {
      const postponed = keysOf(chain, header.hash, shardId, TrieKeyCol.PostponedReceipt);
      if (postponed.length > 0) postponedSeen = true;
      // Data is kept only while its callback waits for more: a joined callback holds one result.
      if (keysOf(chain, header.hash, shardId, TrieKeyCol.ReceivedData).length > 0) partialSeen = true;
    }
    for (const chunk of chain.chainStore.blockChunkHeaders(header.hash)!)
      if (chunk.inner.congestionInfo.delayedReceiptsGas > 0n) delayedSeen = true;
    // A callback still waits for its data on an account that is gone.
    for (const id of LEAVING)
      if (!exists(id, header.hash) && ownRows(chain, header.hash, id, TrieKeyCol.PostponedReceipt).length > 0)
        orphanSeen = true;
    for await (const [k] of chain.store.iter(DBCol.StateChanges, header.hash)) changedCols.add(k[32]!);
    return true;
  };

  const calls: Call[] = [];
  const anyone = [...USERS, 'ghost.near'];
  const staying = new Set(LEAVING);
  for (let block = 0; block < 30; block++) {
    // From block 12 on, a leaving caller with a callback waiting deletes itself.
    if (block >= 12)
      for (const id of staying)
        if (ownRows(chain, chain.head().hash, id, TrieKeyCol.PostponedReceipt).length > 0) {
          sender.send(id, id, [{ type: 'DeleteAccount', beneficiaryId: pick(USERS) }]);
          staying.delete(id);
          break;
        }
    for (let n = 0; n < 4; n++) {
      const id = new Uint8Array(8);
      new DataView(id.buffer).setUint32(0, calls.length);
      const targets = Array.from({ length: random() < 0.5 ? 1 : 2 }, () => ({
        accountId: pick(anyone),
        fail: random() < 0.25,
      }));
      const call: Call = { caller: pick([...USERS, ...staying]), id, targets };
      calls.push(call);
      const deposit = BigInt(Math.floor(random() * 1e6)) * 10n ** 18n;
      sender.send(pick(USERS), call.caller, [
        { type: 'FunctionCall', methodName: 'go', args: goArgs(call), gas: 100n * 10n ** 12n, deposit },
      ]);
    }
    if (!(await check(`block ${block}`))) return;
  }
  const waiting = (blockHash: Uint8Array) =>
    keysLeft(chain, blockHash, [
      TrieKeyCol.PostponedReceipt,
      TrieKeyCol.PostponedReceiptId,
      TrieKeyCol.PendingDataCount,
      TrieKeyCol.ReceivedData,
      TrieKeyCol.DelayedReceiptOrIndices,
    ]);
  let drained = 0;
  while (waiting(chain.head().hash).length > 0 || chain.pool.size > 0) {
    if (++drained > 300 || !(await check(`drain ${drained}`))) break;
  }
  // Receipts the last chunks sent are still on their way: a few more blocks deliver and run them.
  for (let n = 0; n < 3; n++) if (!(await check(`settle ${n}`))) return;
  t.same(waiting(chain.head().hash), [], `nothing waits on any shard after ${drained} more blocks`);
  t.ok(postponedSeen, 'callbacks were postponed until their data came');
  t.ok(partialSeen, 'joined callbacks held one result while they waited for the other');
  t.ok(delayedSeen, 'receipts waited in a delayed queue');
  t.same(staying, new Set(), 'every leaving caller deleted itself');
  t.ok(orphanSeen, 'callbacks waited on accounts deleted since');
  const head = chain.head().hash;
  // nearcore's remove_account takes an account's key, code and data; its callbacks then fail for want
  // of the account, and take their data with them.
  t.same(
    LEAVING.flatMap((id) => [...accountTrie(chain, id, head).iterPrefix(new Uint8Array(0))])
      .map(([k]) => parseTrieKey(k))
      .filter((k) => 'accountId' in k && LEAVING.includes(k.accountId))
      .map((k) => JSON.stringify(k, (_, v) => (v instanceof Uint8Array ? toHex(v) : v))),
    [],
    'nothing of a deleted caller is left in its shard',
  );
  // nearcore stores the changes of these columns only: the others are not all keyed by account, and
  // every shard would write the same row.
  t.same(
    [...changedCols].sort((a, b) => a - b),
    [TrieKeyCol.Account, TrieKeyCol.ContractCode, TrieKeyCol.AccessKey, TrieKeyCol.ContractData],
    'state changes are stored for accounts, contract code, access keys and contract data only',
  );

  const wrong: string[] = [];
  const stayed = calls.filter((call) => USERS.includes(call.caller));
  for (const call of stayed) {
    const got = accountTrie(chain, call.caller, head).get(trieKeyContractData(call.caller, call.id));
    const want = expectedRecord(call);
    if (got === undefined || toHex(got) !== toHex(want))
      wrong.push(`${toHex(call.id)} on ${call.caller}: ${got && toHex(got)}, expected ${toHex(want)}`);
  }
  t.same(
    wrong,
    [],
    `all ${stayed.length} callbacks of the callers still there ran with the results their calls gave`,
  );
  const records = chain.layout.shardIds.reduce(
    (n, shardId) => n + keysOf(chain, head, shardId, TrieKeyCol.ContractData).length,
    0,
  );
  t.equal(records, stayed.length, 'and each ran once');
});
