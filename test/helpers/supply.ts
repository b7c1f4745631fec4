// Money is conserved: the sum of every account's balance and stake, and of every gas key's balance,
// in a stopped node's head state, and what the head header says it should be (the total supply less
// what the head's own chunks burnt, which only the next header subtracts).
import type { ChainReader } from '@nearlite/chain';
import { decodeAccessKey, decodeAccount } from '@nearlite/primitives';
import { TrieKeyCol } from '@nearlite/trie';

export interface SupplyCheck {
  /** Σ amount + locked over every account of every shard at the head, and what gas keys hold. */
  readonly held: bigint;
  /** The head header's total supply less the balance its chunks burnt. */
  readonly expected: bigint;
  readonly accounts: number;
}

export function supplyAtHead(reader: ChainReader): SupplyCheck {
  const tip = reader.head()!;
  let held = 0n;
  let accounts = 0;
  for (const shard of reader.layout.shardIds) {
    for (const [, v] of reader.shardState(shard).iterPrefix(Uint8Array.of(TrieKeyCol.Account))) {
      const a = decodeAccount(v);
      held += a.amount + a.locked;
      accounts++;
    }
    for (const [, v] of reader.shardState(shard).iterPrefix(Uint8Array.of(TrieKeyCol.AccessKey)))
      held += gasKeyBalance(v);
  }
  const header = reader.blockByHeight(tip.height)!;
  let burnt = 0n;
  for (const shard of reader.layout.shardIds)
    burnt += reader.chainStore.chunkExtra(header.hash, shard)?.balanceBurnt ?? 0n;
  return { held, expected: header.rest.totalSupply - burnt, accounts };
}

/** What a row of the access-key column holds as money: a gas key's balance (its nonces are eight-byte rows of their own). */
export function gasKeyBalance(row: Uint8Array): bigint {
  return row.length === 8 ? 0n : (decodeAccessKey(row).permission.gasKey?.balance ?? 0n);
}
