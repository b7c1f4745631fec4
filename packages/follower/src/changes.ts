// `changes` and `block_effects` from the state changes the stream published with each block. The
// producer lists them per requested account in trie-key order, each key's changes in block order;
// the same order is rebuilt here from the trie key each change touches.
import {
  base58Encode,
  bytesEqual,
  bytesEqualAt,
  type ChangesRequest,
  compareBytes,
  concatBytes,
  parsePublicKey,
  toHex,
} from '@nearlite/primitives';
import type { StateChangeWithCauseJson } from '@nearlite/stream';
import {
  trieKeyAccessKey,
  trieKeyAccessKeyPrefix,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractDataPrefix,
} from '@nearlite/trie';
import type { HistoryReader, StoredBlock } from './history_reader.js';
import { stateChangeWrite } from './state_change_keys.js';

interface Keyed {
  readonly key: Uint8Array;
  readonly change: StateChangeWithCauseJson;
  readonly index: number;
}

async function blockChanges(history: HistoryReader, block: StoredBlock): Promise<Keyed[]> {
  const raw = await history.stateChanges(block.hash);
  const list = raw === undefined ? [] : (JSON.parse(raw) as StateChangeWithCauseJson[]);
  const out: Keyed[] = [];
  list.forEach((change, index) => {
    const w = stateChangeWrite(change);
    if (w) out.push({ key: w.key, change, index });
  });
  return out.sort((a, b) => compareBytes(a.key, b.key) || a.index - b.index);
}

const view = (c: StateChangeWithCauseJson) => ({ cause: c.cause, type: c.type, change: c.change });

/** The first change whose key is not below `k`. */
function lowerBound(all: readonly Keyed[], k: Uint8Array): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(all[mid]!.key, k) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export async function changesView(
  history: HistoryReader,
  block: StoredBlock,
  req: ChangesRequest,
): Promise<object> {
  const all = await blockChanges(history, block);
  const out: object[] = [];
  // Each key or prefix once, as the producer answers (chain's views/changes.ts `once`), and found by
  // a binary search of the block's sorted changes rather than a pass over them all per id.
  const seen = new Set<string>();
  const pick = (k: Uint8Array, exact: boolean) => {
    const hex = toHex(k);
    if (seen.has(hex)) return;
    seen.add(hex);
    for (let i = lowerBound(all, k); i < all.length; i++) {
      const key = all[i]!.key;
      if (exact ? !bytesEqual(key, k) : !bytesEqualAt(k, key, 0)) break;
      out.push(view(all[i]!.change));
    }
  };
  switch (req.changesType) {
    case 'account_changes':
      for (const id of req.accountIds) pick(trieKeyAccount(id), true);
      break;
    case 'single_access_key_changes':
      // By prefix, as nearcore looks a key up: a gas key's nonces are stored under its key.
      for (const key of req.keys) pick(trieKeyAccessKey(key.accountId, parsePublicKey(key.publicKey)), false);
      break;
    case 'all_access_key_changes':
      for (const id of req.accountIds) pick(trieKeyAccessKeyPrefix(id), false);
      break;
    case 'contract_code_changes':
      for (const id of req.accountIds) pick(trieKeyContractCode(id), true);
      break;
    case 'data_changes':
      for (const id of req.accountIds) pick(concatBytes(trieKeyContractDataPrefix(id), req.keyPrefix), false);
      break;
  }
  return { block_hash: blockHashText(block), changes: out };
}

const TOUCHED: Record<string, string> = {
  account_update: 'account_touched',
  account_deletion: 'account_touched',
  access_key_update: 'access_key_touched',
  access_key_deletion: 'access_key_touched',
  data_update: 'data_touched',
  data_deletion: 'data_touched',
  contract_code_update: 'contract_code_touched',
  contract_code_deletion: 'contract_code_touched',
};

export async function changesInBlockView(history: HistoryReader, block: StoredBlock): Promise<object> {
  const changes: object[] = [];
  let last: Uint8Array | undefined;
  // The stream publishes each change with its cause, so a key changed twice comes twice; nearcore
  // names each changed trie key once (blockChanges sorts them by key).
  for (const c of await blockChanges(history, block)) {
    const type = TOUCHED[c.change.type];
    if (!type) continue;
    if (last !== undefined && bytesEqual(last, c.key)) continue;
    last = c.key;
    changes.push({ type, account_id: c.change.change.account_id });
  }
  return { block_hash: blockHashText(block), changes };
}

function blockHashText(block: StoredBlock): string {
  return base58Encode(block.hash);
}
