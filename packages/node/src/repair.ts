// `nearlite repair`: rolls a damaged store back to its last whole block and says what it drops.
import { rmSync } from 'node:fs';
import {
  ChainStore,
  heightRanges,
  loadGenesisConfig,
  repairChain,
  repairTargetText,
  shardLayoutFromView,
} from '@nearlite/chain';
import { HistoryStore, holdsHistory, repairHistory } from '@nearlite/follower';
import { databaseExists, readCheckedMetadata, Store } from '@nearlite/store';
import { CHAIN_DB_OPTIONS } from './chain_store_options.js';
import { finalHeadPath, readFinalHead, writeFinalHead } from './final_head.js';
import { homeConfig, homeFiles } from './home.js';

export async function repair(home: string, out: (line: string) => void): Promise<void> {
  const p = homeFiles(home, homeConfig(home));
  const genesis = loadGenesisConfig(p.genesis);
  const shardIds = shardLayoutFromView(genesis.shardLayout).shardIds;
  if (!databaseExists(p.data)) {
    // Opening would make an empty one: a home the node never ran on, or config.json's store.path not it.
    out(`no database at ${p.data}: nothing to repair`);
    return;
  }
  const store = await Store.open(p.data, CHAIN_DB_OPTIONS);
  try {
    // A database of another version holds rows this repair would misread as damage, and drop.
    readCheckedMetadata(store);
    if (holdsHistory(store)) {
      await repairFollowed(store, out);
      return;
    }
    // Said before the work, so a repair stopped part way has told what it was doing.
    const result = await repairChain(store, shardIds, genesis.genesisHeight, {
      onPlan: (target, problems, resumed) => {
        if (resumed) out(`going on with a repair that stopped part way through ${repairTargetText(target)}`);
        if (problems.length > 0) out(damageFound(problems));
        if (target.kind === 'rollback')
          out(
            `rolling back to #${target.height}: every block above it up to the head #${target.headHeight} goes`,
          );
      },
    });
    const dropped = `${result.droppedHeights.length} block(s) (${heightRanges(result.droppedHeights)})`;
    if (result.wiped)
      out(
        `dropped every block (${heightRanges(result.droppedHeights)}): the next start rebuilds the chain from genesis.json`,
      );
    else if (result.head && result.target?.kind === 'rollback') {
      out(`rolled back to #${result.head.height}`);
      // The stopped run's own deletions went uncounted: the heights are what is known of them.
      if (result.resumed)
        out(
          `dropped every block above #${result.head.height} up to #${result.target.headHeight}` +
            (result.droppedHeights.length > 0
              ? `, ${dropped} of them with ${result.droppedTransactions} transaction(s) in this run`
              : ', all of them before this run'),
        );
      else out(`dropped ${dropped} with ${result.droppedTransactions} transaction(s)`);
    } else out('every kept height is whole: nothing to roll back');
    // Reconcile the announced final head with what the store now holds, saying what is lost.
    const cs = new ChainStore(store);
    const head = cs.head();
    const seen = readFinalHead(home, p.data);
    const headHeader = head ? cs.blockHeader(head.hash) : undefined;
    const final = headHeader ? cs.blockHeader(headHeader.rest.lastFinalBlock) : undefined;
    if (seen && (!final || final.lite.height < seen.height))
      out(
        `final blocks up to #${seen.height} (${seen.hash}) were announced and are gone; ` +
          `the chain continues from #${head?.height ?? 'genesis'} and will give those heights new hashes`,
      );
    if (final) writeFinalHead(home, p.data, final.lite.height, final.hash);
    else rmSync(finalHeadPath(home, p.data), { force: true });
  } finally {
    await store.close();
  }
}

/** A follower's history rolled back: what goes is fetched from the source again on the next start. */
async function repairFollowed(store: Store, out: (line: string) => void): Promise<void> {
  const result = await repairHistory(new HistoryStore(store));
  if (result.problems.length === 0) {
    out('every kept height is whole: nothing to roll back');
    return;
  }
  out(damageFound(result.problems));
  if (result.emptied)
    out(
      `nothing whole to roll back to: every row is deleted (${result.droppedHeights.length} block(s)); the next start writes the genesis state and follows from the source's first block`,
    );
  else {
    const to = result.cursor!.height;
    const above = result.droppedHeights[0];
    out(`rolled back to #${to}`);
    if (above !== undefined && above > to + 1)
      out(`nothing is stored at #${to + 1}–#${above - 1} any more (lost)`);
    out(
      `dropped ${result.droppedHeights.length} block(s) (${heightRanges(result.droppedHeights)}); the next start follows from #${to + 1} again`,
    );
  }
}

/** The heights a check found damaged, and what the first one lacks. */
function damageFound(problems: readonly { readonly height: number; readonly what: string }[]): string {
  const first = problems[0]!;
  return `damage found at ${heightRanges(problems.map((x) => x.height))} (first: #${first.height} ${first.what})`;
}
