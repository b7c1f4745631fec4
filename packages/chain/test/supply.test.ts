// The supply a block header states is the money on its chain. Random transactions between accounts
// on four shards (transfers, account creations and deletions with beneficiaries elsewhere, key
// changes, failing calls, refunds crossing back) run through the chain's own block production, with
// a small chunk gas limit so receipts wait in delayed queues. After every block, the header's
// total_supply (nearcore's block.rs: the previous supply, plus what is minted, minus what the
// block's chunks burnt) equals what the state of every shard holds (balances, locked, gas keys)
// plus what receipts carry while no account holds it: those the block's chunks sent to the next
// ones, and those delayed, postponed or yielded in a shard's trie (balance_checker's receipt_cost).
import type { Chain } from '@nearlite/chain';
import { decodeBytesList } from '@nearlite/chain';
import {
  type Action,
  decodeAccessKey,
  decodeAccount,
  decodeReceipt,
  decodeStoredReceipt,
  sha256,
} from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, receiptCost } from '@nearlite/runtime';
import { blockShardKey, DBCol, Store } from '@nearlite/store';
import { TrieKeyCol, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import {
  openProtocol86Chain,
  poolTransaction,
  protocol86Localnet,
} from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';

const NEAR = 10n ** 24n;
const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
// Two on each of the four shards the layout's boundaries (g0, n0, t0) make.
const USERS = ['alice', 'bob.near', 'henry', 'kate.near', 'olga', 'ravi.near', 'ulf', 'zoe.near'];

/** What every shard's state holds at a block, and what its receipts carry outside any account. */
function moneyAt(chain: Chain, blockHash: Uint8Array): bigint {
  let sum = 0n;
  for (const shardId of chain.layout.shardIds) {
    for (const [key, value] of chain.stateTrie(blockHash, shardId)!.iterPrefix(new Uint8Array(0))) {
      const col = key[0];
      if (col === TrieKeyCol.Account) {
        const a = decodeAccount(value);
        sum += a.amount + a.locked;
      } else if (col === TrieKeyCol.AccessKey && value.length !== 8) {
        // A gas key's nonces are eight-byte rows under it; the key itself holds its balance.
        sum += decodeAccessKey(value).permission.gasKey?.balance ?? 0n;
      } else if (col === TrieKeyCol.DelayedReceiptOrIndices && key.length === 9) {
        sum += receiptCost(config, decodeStoredReceipt(value).receipt);
      } else if (col === TrieKeyCol.PostponedReceipt || col === TrieKeyCol.PromiseYieldReceipt) {
        sum += receiptCost(config, decodeReceipt(value));
      }
    }
    const outgoing = chain.store.get(DBCol.OutgoingReceipts, blockShardKey(blockHash, shardId));
    for (const bytes of outgoing ? decodeBytesList(outgoing) : [])
      sum += receiptCost(config, decodeReceipt(bytes));
  }
  return sum;
}

t.test('every header’s total_supply is the money on the chain, on four shards', async (t) => {
  const random = rng(Number(process.env.SUPPLY_FUZZ_SEED ?? 5));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const { raw, signer, key } = protocol86Localnet(4);
  const r = raw as typeof raw & { gas_limit: number };
  r.gas_limit = 3_000_000_000_000; // a few receipts a chunk: the rest are delayed
  for (const id of USERS) {
    const account = {
      amount: (1000n * NEAR).toString(),
      locked: '0',
      code_hash: '11111111111111111111111111111111',
      storage_usage: 182,
    };
    raw.records.push({ Account: { account_id: id, account } });
    raw.records.push({
      AccessKey: {
        account_id: id,
        public_key: key.public_key,
        access_key: { nonce: 0, permission: 'FullAccess' },
      },
    });
    raw.total_supply = (BigInt(raw.total_supply) + 1000n * NEAR).toString();
  }
  const chain = await openProtocol86Chain(raw, signer, await Store.memory());
  const shards = new Set(USERS.map((id) => chain.layout.accountIdToShardId(id)));
  t.equal(shards.size, 4, 'the accounts live on every shard');

  // Every account signs with the validator's key; a sub-account is given it when it is created.
  const nonces = new Map<string, bigint>();
  const live = new Set(USERS);
  let seq = 0;
  const send = (signerId: string, receiverId: string, actions: Action[]) => {
    const nonce = (nonces.get(signerId) ?? 0n) + 1n;
    nonces.set(signerId, nonce);
    poolTransaction(chain, signer, signerId, receiverId, nonce, actions);
  };

  let delayedSeen = false;
  const created = new Set<string>();
  const deleted = new Set<string>();
  for (let block = 0; block < 40; block++) {
    for (let n = 0; n < 6; n++) {
      const signerId = pick([...live]);
      const amount = BigInt(Math.floor(random() * 5e6)) * 10n ** 18n;
      const roll = random();
      const anyone = [...USERS, ...created, 'ghost.near'];
      if (roll < 0.45) send(signerId, pick(anyone), [{ type: 'Transfer', deposit: amount }]);
      else if (roll < 0.6) {
        // A sub-account is on its parent's shard or another, as the layout puts it.
        const id = `s${seq++}.${signerId}`;
        created.add(id);
        send(signerId, id, [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: amount },
          {
            type: 'AddKey',
            publicKey: signer.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ]);
      } else if (roll < 0.7 && !USERS.includes(signerId)) {
        send(signerId, signerId, [{ type: 'DeleteAccount', beneficiaryId: pick(anyone) }]);
      } else if (roll < 0.85) {
        send(signerId, pick(anyone), [
          {
            type: 'FunctionCall',
            methodName: 'go',
            args: new Uint8Array(8),
            gas: 5n * 10n ** 12n,
            deposit: amount,
          },
        ]);
      } else {
        send(signerId, signerId, [
          {
            type: 'AddKey',
            publicKey: { ...signer.publicKey, data: sha256(Uint8Array.of(seq++)) },
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
          { type: 'Transfer', deposit: amount },
        ]);
      }
    }
    // A header subtracts what the chunks of the block before it burnt (their prev_balance_burnt),
    // so the money after a block's chunks is the next header's supply.
    const money = moneyAt(chain, chain.head().hash);
    const header = await chain.produceBlock();
    if (money !== header.rest.totalSupply) {
      t.fail(
        `block ${header.lite.height}: the money after the block before ${money}, total_supply ${header.rest.totalSupply} (diff ${money - header.rest.totalSupply})`,
      );
      return;
    }
    for (const chunk of chain.chainStore.blockChunkHeaders(header.hash)!)
      if (chunk.inner.congestionInfo.delayedReceiptsGas > 0n) delayedSeen = true;
    // Accounts come and go by the chain's own state; a deleted one signs no more.
    for (const id of created) {
      const trie = chain.stateTrie(header.hash, chain.layout.accountIdToShardId(id))!;
      const key = trie.get(trieKeyAccessKey(id, signer.publicKey));
      if (trie.get(trieKeyAccount(id)) !== undefined && key !== undefined) {
        // A key added by a receipt starts at a nonce of the block's height times a million.
        if (!live.has(id)) nonces.set(id, decodeAccessKey(key).nonce);
        live.add(id);
      } else if (live.has(id)) {
        live.delete(id);
        deleted.add(id);
        nonces.delete(id);
      }
    }
  }
  t.pass('after each of 40 blocks, the header’s total_supply was the money on the chain');
  t.ok(delayedSeen, 'receipts waited in a delayed queue');
  t.ok(
    created.size > 0 && deleted.size > 0,
    `accounts were created (${created.size}) and deleted (${deleted.size})`,
  );
});
