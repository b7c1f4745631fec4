// `nearlite inspect`: reads a stopped node's home through the embeddable ChainReader.
import {
  blockHeaderView,
  type ChainReader,
  checkChain,
  chunkHeaderView,
  heightRanges,
  repairTargetText,
} from '@nearlite/chain';
import { checkHistory, HistoryStore, holdsHistory } from '@nearlite/follower';
import {
  accountView,
  base58Encode,
  decodeReceipt,
  decodeSignedTransaction,
  stringifyJson,
  toBase64,
  utf8,
} from '@nearlite/primitives';
import { DBCol } from '@nearlite/store';
import { checkFinalHead, FinalHeadError } from './final_head.js';
import { homeConfig, homeFiles, openHomeReader } from './home.js';
import { accountIdArg, blockArg, hashArg, heightArg, InspectError } from './inspect_args.js';
import { inspectFollowed } from './inspect_followed.js';

export { InspectError } from './inspect_args.js';

/** A follower's position (null fields on a producer's store). */
function followView(store: ChainReader['store']): object {
  const h = new HistoryStore(store);
  const cursor = h.cursor();
  return {
    cursor_height: cursor?.height ?? null,
    cursor_hash: cursor ? base58Encode(cursor.hash) : null,
    first_height: h.firstHeight(),
    genesis_history_height: h.genesisHeight(),
    // Where the history began after the genesis: the height its state is held from.
    state_held_from: h.stateFrom(),
  };
}

/** How many arguments each subcommand takes after its name. */
const MOST_ARGUMENTS: Record<string, number> = {
  block: 1,
  chunk: 2,
  tx: 1,
  account: 2,
  state: 1,
  follow: 0,
  stats: 0,
  verify: 0,
};

export async function inspect(
  home: string,
  args: readonly string[],
  out: (s: string) => void,
): Promise<void> {
  const [what, a, b] = args;
  const prefixAt = args.indexOf('--prefix');
  if (prefixAt >= 0 && what !== 'state')
    throw new InspectError(`--prefix goes with inspect state, not inspect ${what ?? 'alone'}`);
  const given = prefixAt >= 0 ? prefixAt - 1 : args.length - 1;
  const most = what === undefined ? undefined : MOST_ARGUMENTS[what];
  if (most !== undefined && given > most)
    throw new InspectError(`unexpected argument '${args[most + 1]}' for inspect ${what}`);
  const reader = await openHomeReader(home);
  try {
    const print = (v: unknown) => out(`${stringifyJson(v)}\n`);
    if (holdsHistory(reader.store)) {
      if (await inspectFollowed(new HistoryStore(reader.store), args, print)) return;
    } else if (!reader.head() && ['block', 'chunk', 'account', 'state'].includes(what ?? ''))
      throw new InspectError('the store holds no block yet');
    switch (what) {
      case 'block': {
        const at = a === undefined ? { height: reader.head()!.height } : blockArg(a);
        const header = 'height' in at ? reader.blockByHeight(at.height) : reader.blockByHash(at.hash);
        if (!header) throw new InspectError(`no block ${a ?? ''}`);
        print(blockHeaderView(header));
        return;
      }
      case 'chunk': {
        const c = reader.chunk(heightArg(a) ?? reader.head()!.height, heightArg(b, 'a shard id') ?? 0);
        if (!c) throw new InspectError(`no chunk at height ${a} shard ${b ?? 0}`);
        // The hashes and ids `inspect tx` and the RPC take, not the bodies.
        print({
          header: chunkHeaderView(c.header),
          transactions: c.transactions.map((t) => base58Encode(decodeSignedTransaction(t).hash)),
          receipts: c.prevOutgoingReceipts.map((r) => base58Encode(decodeReceipt(r).receiptId)),
        });
        return;
      }
      case 'tx': {
        const hash = hashArg(a, 'tx');
        const tx = reader.transaction(hash);
        const outcome = reader.outcome(hash);
        if (!tx) throw new InspectError(`no transaction ${a}`);
        print({
          hash: a,
          block_hash: tx.blockHash ? base58Encode(tx.blockHash) : null,
          signed_tx_base64: toBase64(tx.bytes),
          outcome_base64: outcome ? toBase64(outcome.outcomeBytes) : null,
        });
        return;
      }
      case 'account': {
        const acc = reader.account(accountIdArg(a, 'account'), heightArg(b));
        if (!acc) throw new InspectError(`account ${a} does not exist`);
        print({ account_id: a, ...accountView(acc) });
        return;
      }
      case 'state': {
        // As view_state answers UNKNOWN_ACCOUNT: no state is not the same as no account.
        if (!reader.account(accountIdArg(a, 'state'))) throw new InspectError(`account ${a} does not exist`);
        const prefix = prefixAt >= 0 ? utf8(args[prefixAt + 1] ?? '') : new Uint8Array(0);
        for (const [k, v] of reader.contractState(a!, prefix))
          print({ key: toBase64(k), value: toBase64(v) });
        return;
      }
      case 'follow': {
        print(followView(reader.store));
        return;
      }
      case 'stats': {
        const head = reader.head();
        const columns: Record<string, number> = {};
        for (const [name, col] of Object.entries(DBCol))
          columns[name] = await reader.store.approximateSize(col);
        print({
          kind: reader.kind(),
          head_height: head?.height ?? null,
          tail_height: reader.tail(),
          follow: followView(reader.store),
          column_bytes: columns,
        });
        return;
      }
      case 'verify': {
        if (holdsHistory(reader.store)) {
          // A follower's history: every kept block from the cursor down to the tail.
          const report = await checkHistory(new HistoryStore(reader.store), {
            window: Number.POSITIVE_INFINITY,
          });
          print({
            cursor_height: report.cursor?.height ?? null,
            first_height: report.first,
            checked_heights: report.cursor ? report.cursor.height - report.from + 1 : 0,
            problems: report.problems,
          });
          if (report.problems.length > 0)
            throw new InspectError(
              `the followed history is damaged at ${heightRanges(report.problems.map((p) => p.height))}; \`nearlite repair --home ${home}\` rolls it back`,
            );
          return;
        }
        // The full check of every kept height (a starting node checks only the newest ones).
        const report = checkChain(reader.store, reader.layout.shardIds, { window: Number.POSITIVE_INFINITY });
        let finalHead: string | null = null;
        try {
          checkFinalHead(home, homeFiles(home, homeConfig(home)).data, report.head, reader.chainStore);
        } catch (err) {
          if (!(err instanceof FinalHeadError)) throw err;
          finalHead = err.message;
        }
        print({
          head_height: report.head?.height ?? null,
          tail_height: report.tail,
          checked_heights: report.head ? report.head.height - report.from + 1 : 0,
          problems: report.problems,
          final_head: finalHead ?? 'held',
        });
        if (report.stoppedRepair)
          throw new InspectError(
            `a repair of the store stopped part way through ${repairTargetText(report.stoppedRepair)}; \`nearlite repair --home ${home}\` finishes it`,
          );
        if (report.problems.length > 0 || finalHead)
          throw new InspectError(
            report.problems.length > 0
              ? `the store is damaged at ${heightRanges(report.problems.map((p) => p.height))}; \`nearlite repair --home ${home}\` rolls it back`
              : finalHead!,
          );
        return;
      }
      default:
        throw new InspectError(
          'inspect what? block [HEIGHT|HASH] | chunk HEIGHT [SHARD] | tx HASH | account ID [HEIGHT] | state ID [--prefix P] | follow | stats | verify',
        );
    }
  } finally {
    await reader.close();
  }
}
