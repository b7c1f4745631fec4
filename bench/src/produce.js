// The chain thread's own cost per transfer, measured in one process without HTTP: the bench
// dataset's chain (a copy), transfers signed ahead and put into the pool as admission would, and
// blocks produced one after another as the chain thread produces them. CPU time, not wall time,
// so the machine's other work counts less than in the send_tx case. Run alone:
// `node bench/src/produce.js [--quick] [--blocks N] [--per-block N] [--senders N] [--bytes]
// [--write-buffer-mib N] [--archive] [--compression]` (`--bytes`: what each block writes, per column;
// `--write-buffer-mib`: the LevelDB memtable's size instead of the chain's own; `--archive`: without
// TrieChanges, as an archival node writes its blocks; `--compression`: snappy tables, as config.json's
// `store.compression` asks).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Chain, flatStateReader, loadGenesis, PRODUCER_CACHES, signerFromKeyFile } from '@nearlite/chain';
import { decodeAccessKey, decodeSignedTransaction, parsePublicKey } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import { trieKeyAccessKey } from '@nearlite/trie';
import { KeyPair } from 'near-api-js';
import { createApplier, STORAGE_USAGE_CONFIG } from '../../packages/node/dist/applier.js';
import { CHAIN_STORE_OPTIONS } from '../../packages/node/dist/chain_store_options.js';
import { threadCpuSeconds } from '../../packages/node/dist/thread_cpu.js';
import { buildDataset } from './dataset.js';
import { benchParams } from './params.js';
import { fastTransferSigner } from './signer.js';

/** CPU seconds of the calling thread (Linux), and of the whole process. */
const threadCpu = () => threadCpuSeconds() ?? Number.NaN;
function processCpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

export async function measureProduce(P, dataset, o) {
  const home = join(import.meta.dirname, '..', '.cache', `produce-${P.name}`);
  rmSync(home, { recursive: true, force: true });
  cpSync(dataset.home, home, { recursive: true });
  const genesis = loadGenesis(join(home, 'genesis.json'));
  const store = await Store.open(join(home, 'data'), {
    ...CHAIN_STORE_OPTIONS,
    ...(o.writeBufferMiB ? { writeBufferBytes: o.writeBufferMiB * 1024 * 1024 } : {}),
    ...(o.compression ? { compression: true } : {}),
  });
  const chain = await Chain.open({
    store,
    genesis,
    signer: signerFromKeyFile(JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8'))),
    applier: createApplier(genesis),
    storageUsageConfig: STORAGE_USAGE_CONFIG,
    saveTrieChanges: !o.archive,
    // As the chain thread keeps them.
    caches: PRODUCER_CACHES,
  });
  const byCol = new Map();
  if (o.bytes) {
    const commit = store.commit.bind(store);
    store.commit = (u, opts) => {
      for (const op of u.ops)
        byCol.set(op.col.id, (byCol.get(op.col.id) ?? 0) + op.key.length + (op.value?.length ?? 0));
      for (const r of u.refcounts.values())
        byCol.set(r.col.id, (byCol.get(r.col.id) ?? 0) + r.key.length + (r.value?.length ?? 0) + 8);
      return commit(u, opts);
    };
  }
  const key = KeyPair.fromString(dataset.meta.sharedSecret);
  const sign = fastTransferSigner(key);
  const pkText = key.getPublicKey().toString();
  const pk = parsePublicKey(pkText);
  /** The nonce the head's state holds for an account's key. */
  const nonceAtHead = (id) => {
    const ak = flatStateReader(store, chain.layout.accountIdToShardId(id)).get(trieKeyAccessKey(id, pk));
    if (!ak) throw new Error(`no access key for ${id}`);
    return decodeAccessKey(ak).nonce;
  };
  const accounts = dataset.meta.accounts;
  const senders = accounts.slice(0, o.senders).map((id) => ({ id, nonce: nonceAtHead(id) }));
  let next = 0;
  let seed = 42;
  const receiver = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return accounts[seed % accounts.length];
  };
  const fill = () => {
    const blockHash = chain.head().hash;
    for (let i = 0; i < o.perBlock; i++) {
      const s = senders[next++ % senders.length];
      s.nonce += 1n;
      const bytes = Buffer.from(sign(s.id, receiver(), s.nonce, blockHash, 1n), 'base64');
      const stx = decodeSignedTransaction(bytes);
      chain.pool.add({
        hash: stx.hash,
        bytes,
        shardId: chain.layout.accountIdToShardId(s.id),
        accessKeyId: `${s.id}:${pkText}`,
        nonce: s.nonce,
        signatureVerified: true,
      });
    }
  };
  const stats0 = { ...store.stats };
  let cpu = 0;
  let all = 0;
  let transfers = 0;
  const t0 = performance.now();
  let wall = 0;
  for (let b = 0; b < o.warmup + o.blocks; b++) {
    fill();
    const c0 = threadCpu();
    const p0 = processCpu();
    const w0 = performance.now();
    await chain.produceBlock();
    if (b >= o.warmup) {
      cpu += threadCpu() - c0;
      all += processCpu() - p0;
      wall += performance.now() - w0;
      transfers += o.perBlock;
    }
  }
  const reads = store.stats.reads - stats0.reads;
  const misses = reads - (store.stats.cacheHits - stats0.cacheHits);
  // Every transfer ran: each sender's key holds the nonce of its last one.
  await chain.produceBlock();
  await chain.produceBlock();
  for (const s of senders) {
    const nonce = nonceAtHead(s.id);
    if (nonce !== s.nonce) throw new Error(`${s.id}: nonce ${nonce}, expected ${s.nonce}`);
  }
  if (o.bytes) {
    const names = new Map(Object.entries(DBCol).map(([n, c]) => [c.id, n]));
    const n = o.warmup + o.blocks + 2;
    o.log(
      [...byCol]
        .sort((a, b) => b[1] - a[1])
        .map(([id, b]) => `${names.get(id)} ${Math.round(b / n / 1024)} kB/block`)
        .join('\n'),
    );
  }
  await store.close();
  rmSync(home, { recursive: true, force: true });
  return {
    blocks: o.blocks,
    warmup: o.warmup,
    perBlock: o.perBlock,
    threadUsPerTransfer: Math.round((cpu * 1e6) / transfers),
    processUsPerTransfer: Math.round((all * 1e6) / transfers),
    msPerBlock: Math.round((wall / o.blocks) * 10) / 10,
    storeReadsPerTransfer: Math.round(reads / transfers),
    leveldbReadsPerTransfer: Math.round(misses / transfers),
    seconds: Math.round(performance.now() - t0) / 1000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const quick = process.argv.includes('--quick');
  const P = benchParams(quick);
  const dataset = await buildDataset(join(import.meta.dirname, '..', '.cache'), P, (m) =>
    process.stderr.write(`${m}\n`),
  );
  const r = await measureProduce(P, dataset, {
    blocks: arg('--blocks', 60),
    warmup: arg('--warmup', 10),
    perBlock: arg('--per-block', 100),
    senders: arg('--senders', 1200),
    bytes: process.argv.includes('--bytes'),
    writeBufferMiB: arg('--write-buffer-mib', 0),
    archive: process.argv.includes('--archive'),
    compression: process.argv.includes('--compression'),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(r));
}
