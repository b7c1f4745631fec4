// Four shards with two funded accounts on each, and the money a block leaves on them: what the
// supply tests compare with every header's total_supply.
import type { Chain } from '@nearlite/chain';
import { decodeBytesList } from '@nearlite/chain';
import { decodeAccessKey, decodeAccount, decodeReceipt, decodeStoredReceipt } from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, receiptCost } from '@nearlite/runtime';
import { blockShardKey, DBCol } from '@nearlite/store';
import { TrieKeyCol } from '@nearlite/trie';
import { protocol86Localnet } from '../../../test/helpers/protocol86_chain.js';

export const NEAR = 10n ** 24n;
const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
// Two on each of the four shards the layout's boundaries (g0, n0, t0) make.
export const USERS = ['alice', 'bob.near', 'henry', 'kate.near', 'olga', 'ravi.near', 'ulf', 'zoe.near'];

/** A four-shard localnet where every account of USERS has 1000 NEAR and the validator's key. */
export function withUsers() {
  const { raw, signer, key } = protocol86Localnet(4);
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
  return { raw, signer };
}

/** What every shard's state holds at a block, and what its receipts carry outside any account. */
export function moneyAt(chain: Chain, blockHash: Uint8Array): bigint {
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
