// Four shards with two funded accounts on each, and the money a block leaves on them: what the
// supply tests compare with every header's total_supply, block after block, beside every account's
// storage_usage.
import type { BlockHeader, Chain, Signer } from '@nearlite/chain';
import { decodeBytesList } from '@nearlite/chain';
import {
  type Action,
  decodeAccessKey,
  decodeAccount,
  decodeReceipt,
  decodeStoredReceipt,
  type PublicKey,
  toHex,
} from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, receiptCost } from '@nearlite/runtime';
import { blockShardKey, DBCol } from '@nearlite/store';
import { TrieKeyCol, trieKeyAccessKey, trieKeyAccount, trieKeyContractCode } from '@nearlite/trie';
import { poolTransaction, protocol86Localnet } from '../../../test/helpers/protocol86_chain.js';
import { gasKeyBalance } from '../../../test/helpers/supply.js';
import { storageMismatch } from '../../runtime/test/storage_records.js';

export const NEAR = 10n ** 24n;
const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
// Two on each of the four shards the layout's boundaries (g0, n0, t0) make.
export const USERS = ['alice', 'bob.near', 'henry', 'kate.near', 'olga', 'ravi.near', 'ulf', 'zoe.near'];

/**
 * A localnet of four shards (or `numShards`) where every account of USERS (and of `more`) has 1000
 * NEAR and the validator's key; its epochs last `epochLength` blocks where given.
 */
export function withUsers(more: readonly string[] = [], numShards = 4, epochLength?: number) {
  const { raw, signer, key } = protocol86Localnet(numShards);
  if (epochLength !== undefined) (raw as typeof raw & { epoch_length: number }).epoch_length = epochLength;
  for (const id of [...USERS, ...more]) {
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
  return { raw, signer, key };
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
      } else if (col === TrieKeyCol.AccessKey) {
        sum += gasKeyBalance(value);
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

/** Pools transactions signed with the validator's key; each signer's nonces count up from `nonces`. */
export class Sender {
  readonly nonces = new Map<string, bigint>();
  constructor(
    private readonly chain: Chain,
    private readonly signer: Signer,
  ) {}

  send(signerId: string, receiverId: string, actions: Action[]): void {
    const nonce = (this.nonces.get(signerId) ?? 0n) + 1n;
    this.nonces.set(signerId, nonce);
    poolTransaction(this.chain, this.signer, signerId, receiverId, nonce, actions);
  }
}

/** Deploys `code` on every account of `ids` and produces blocks until all of them have it. */
export async function deployToUsers(
  chain: Chain,
  sender: Sender,
  code: Uint8Array,
  ids: readonly string[] = USERS,
): Promise<boolean> {
  for (const id of ids) sender.send(id, id, [{ type: 'DeployContract', code }]);
  const deployed = () => ids.every((id) => accountTrie(chain, id).get(trieKeyContractCode(id)) !== undefined);
  // Under a small chunk gas limit a chunk takes a deployment or two.
  for (let n = 0; n < 10 && !deployed(); n++) await chain.produceBlock();
  return deployed();
}

/**
 * Produces a block and compares its total_supply with the money the block before it left. A header
 * subtracts what the chunks of the block before it burnt (their prev_balance_burnt), so the money
 * after a block's chunks is the next header's supply. Then every account's storage_usage on every
 * shard is checked against its records. `mismatch` says what differs, if anything does.
 */
export async function produceCheckingSupply(
  chain: Chain,
): Promise<{ header: BlockHeader; mismatch?: string }> {
  const money = moneyAt(chain, chain.head().hash);
  const header = await chain.produceBlock();
  const supply = header.rest.totalSupply;
  const at = `height ${header.lite.height}`;
  if (money !== supply)
    return {
      header,
      mismatch: `${at}: the money after the block before ${money}, total_supply ${supply} (diff ${money - supply})`,
    };
  for (const shardId of chain.layout.shardIds) {
    const trie = chain.stateTrie(header.hash, shardId)!;
    const storage = storageMismatch(() => trie.iterPrefix(new Uint8Array(0)));
    if (storage) return { header, mismatch: `${at}, shard ${shardId}: ${storage}` };
  }
  return { header };
}

/** The trie of the shard holding `accountId`, at a block (the head by default). */
export function accountTrie(chain: Chain, accountId: string, blockHash: Uint8Array = chain.head().hash) {
  return chain.stateTrie(blockHash, chain.layout.accountIdToShardId(accountId))!;
}

/** The keys of column `col` on a shard at a block, the column's bare key (a queue's indices) left out. */
export function keysOf(chain: Chain, blockHash: Uint8Array, shardId: number, col: number): Uint8Array[] {
  return [...chain.stateTrie(blockHash, shardId)!.iterPrefix(Uint8Array.of(col))]
    .map(([k]) => k)
    .filter((k) => k.length > 1);
}

/** Every key of the columns `cols` left on any shard at a block, as `shard:hex`. */
export function keysLeft(chain: Chain, blockHash: Uint8Array, cols: readonly number[]): string[] {
  return chain.layout.shardIds.flatMap((shardId) =>
    cols.flatMap((col) => keysOf(chain, blockHash, shardId, col).map((k) => `${shardId}:${toHex(k)}`)),
  );
}

/**
 * The nonce of `accountId`'s key `publicKey` while the account holds it, for signing after a receipt
 * added the key (it starts at a nonce of the block's height times a million); undefined otherwise.
 */
export function keyNonce(chain: Chain, accountId: string, publicKey: PublicKey, blockHash?: Uint8Array) {
  const trie = accountTrie(chain, accountId, blockHash);
  const key = trie.get(trieKeyAccessKey(accountId, publicKey));
  return key !== undefined && trie.get(trieKeyAccount(accountId)) !== undefined
    ? decodeAccessKey(key).nonce
    : undefined;
}
