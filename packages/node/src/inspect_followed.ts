// `nearlite inspect` on a follower's home: the same subcommands, read from the followed history
// (the stream's JSON views as the source published them, and the state as of a height) rather
// than from a produced chain's columns, which such a home does not have.
import { type HistoryStore, StateNotHeld, type StoredBlock } from '@nearlite/follower';
import { accountView, decodeAccount, toBase64, utf8 } from '@nearlite/primitives';
import { trieKeyAccount, trieKeyContractData, trieKeyContractDataPrefix } from '@nearlite/trie';
import { accountIdArg, blockArg, hashArg, heightArg, InspectError } from './inspect_args.js';

/** A state read the history cannot answer (its source began after the genesis), said as inspect says. */
async function held<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (!(err instanceof StateNotHeld)) throw err;
    throw new InspectError(
      `the state at #${err.height} is not held: this history follows its chain from #${err.stateFrom} and holds only what changed since`,
    );
  }
}

/** Runs one inspect subcommand against a followed history; false for a subcommand it does not serve. */
export async function inspectFollowed(
  history: HistoryStore,
  args: readonly string[],
  print: (v: unknown) => void,
): Promise<boolean> {
  const [what, a, b] = args;
  const cursor = history.cursor();
  const atCursor = (h: number | undefined): number => {
    if (h !== undefined) return h;
    if (!cursor) throw new InspectError('the history holds no followed block yet');
    return cursor.height;
  };
  switch (what) {
    case 'block': {
      const at = a === undefined ? { height: atCursor(undefined) } : blockArg(a);
      const block: StoredBlock | undefined =
        'height' in at ? history.blockAtSync(at.height) : history.blockSync(at.hash);
      if (!block) throw new InspectError(`no block ${a ?? ''} in the followed history`);
      print((JSON.parse(block.json) as { header: unknown }).header);
      return true;
    }
    case 'chunk': {
      const height = atCursor(heightArg(a));
      const shard = heightArg(b, 'a shard id') ?? 0;
      const hash = history.blockHashAt(height);
      const text = hash ? await history.chunk(hash, shard) : undefined;
      if (!text)
        throw new InspectError(`no chunk at height ${height} shard ${shard} in the followed history`);
      const chunk = JSON.parse(text) as {
        header: unknown;
        transactions?: { hash?: unknown }[];
        receipts?: { receipt_id?: unknown }[];
      };
      // The hashes and ids `inspect tx` and the RPC take, not the bodies.
      print({
        header: chunk.header,
        transactions: (chunk.transactions ?? []).map((t) => t.hash),
        receipts: (chunk.receipts ?? []).map((r) => r.receipt_id),
      });
      return true;
    }
    case 'tx': {
      const hash = hashArg(a, 'tx');
      const tx = await history.transaction(hash);
      if (!tx) throw new InspectError(`no transaction ${a} in the followed history`);
      const outcome = await history.outcome(hash);
      print({ hash: a, transaction: JSON.parse(tx), outcome: outcome ? JSON.parse(outcome) : null });
      return true;
    }
    case 'account': {
      const id = accountIdArg(a, 'account');
      const height = atCursor(heightArg(b));
      const value = await held(history.valueAt(trieKeyAccount(id), height));
      if (!value) throw new InspectError(`account ${a} does not exist at #${height}`);
      print({ account_id: a, ...accountView(decodeAccount(value)) });
      return true;
    }
    case 'state': {
      const id = accountIdArg(a, 'state');
      const height = atCursor(undefined);
      // As view_state answers UNKNOWN_ACCOUNT: no state is not the same as no account.
      if (!(await held(history.valueAt(trieKeyAccount(id), height))))
        throw new InspectError(`account ${id} does not exist at #${height}`);
      const prefixAt = args.indexOf('--prefix');
      const prefix = prefixAt >= 0 ? utf8(args[prefixAt + 1] ?? '') : new Uint8Array(0);
      const skip = trieKeyContractDataPrefix(id).length;
      for (const [k, v] of await held(history.scanAt(trieKeyContractData(id, prefix), height)))
        print({ key: toBase64(k.subarray(skip)), value: toBase64(v) });
      return true;
    }
    default:
      return false;
  }
}
