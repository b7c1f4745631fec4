// A chain that stops producing ends every client's wait on a transaction with nearcore's
// TIMEOUT_ERROR at once, and answers a wait begun after it the same way: no block will come.
import {
  Chain,
  type ChunkApplier,
  generateKeyFile,
  makeLocalnetGenesis,
  parseGenesis,
  runtimeTxCodecs,
  signerFromKeyFile,
  TxService,
} from '@nearlite/chain';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, Runtime } from '@nearlite/runtime';
import { Store } from '@nearlite/store';
import t from 'tap';

async function service() {
  const key = generateKeyFile('test.near');
  const genesis = parseGenesis(
    makeLocalnetGenesis({
      chainId: 'test-chain-stop1',
      numShards: 1,
      epochLength: 100,
      validatorAccountId: 'test.near',
      validatorPublicKey: key.public_key,
      protocolVersion: 86,
    }),
  );
  const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
  const runtime = new Runtime({
    config,
    chainId: genesis.config.chainId,
    validators: new Map(genesis.config.validators.map((v) => [v.accountId, v.amount])),
  });
  const applier: ChunkApplier = {
    applyChunk: (ctx, state, txs, incoming) => runtime.applyChunk(ctx, state, txs, incoming),
  };
  const chain = await Chain.open({
    store: await Store.memory(),
    genesis,
    signer: signerFromKeyFile(key),
    applier,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
  });
  // A wait far longer than the test: only the stop can end it in time.
  return { chain, txs: new TxService({ chain, codecs: runtimeTxCodecs(chain, config), timeoutMs: 600_000 }) };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((r) => setTimeout(() => r('waiting'), ms)),
  ]);

t.test('the stop answers the waits, and those that come after it', async (t) => {
  const { chain, txs } = await service();
  const unknown = { txHash: new Uint8Array(32).fill(9), senderAccountId: 'test.near' };
  const before = txs.txStatus(unknown, 'FINAL', false);
  before.catch(() => {});
  t.equal(await within(before, 200), 'waiting', 'an unknown transaction is waited for');
  chain.events.emit('stopped');
  await t.rejects(before, { cause: 'TIMEOUT_ERROR' }, "nearcore's TIMEOUT_ERROR, at once");
  const after = txs.txStatus(unknown, 'EXECUTED_OPTIMISTIC', false);
  after.catch(() => {});
  t.equal(await within(after, 2000), 'settled', 'a wait begun after the stop is not held');
  await t.rejects(after, { cause: 'TIMEOUT_ERROR' });
});
