// near-kit from npm, a client of its own (zod-checked answers, TransactionV1, ML-DSA-65 and gas keys),
// with nearlite standing in for nearcore's sandbox binary through the NEAR_SANDBOX_BIN_PATH its Sandbox
// reads. The Sandbox runs `--home H init --chain-id localnet`, then `run --rpc-addr 0.0.0.0:P
// --network-addr …`; its dumpState() runs `view-state dump-state` on the running node, and its
// restart() kills the node, writes the dump into genesis.json (or puts the first genesis back),
// deletes `data` and starts it again. Every expected figure is nearcore's (parameters at 86).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import bs58 from 'bs58';
import t from 'tap';
// @ts-expect-error plain ESM script shared with the CLI helper
import { ensureContract } from '../scripts/fetch-contracts.mjs';
import { installOnce } from './helpers/npm_install.js';

const ROOT = join(import.meta.dirname, '..');
const INSTALL = join(import.meta.dirname, '.near-kit');
const VERSION = '0.19.0';

const NEAR = 10n ** 24n;
// Send fees of a receipt and a transfer to another account, and what an ML-DSA-65 signature adds.
const ACTION_RECEIPT = 108_059_500_000n;
const TRANSFER = 115_123_062_500n;
const ML_DSA_65_VERIFICATION_COST = 100_000_000_000n;
// delegate_cost's send fee, which DelegateV2 pays as Delegate does.
const DELEGATE = 200_000_000_000n;
// Sent and executed, at the localnet's minimum gas price.
const TRANSFER_BURNT = 2n * (ACTION_RECEIPT + TRANSFER) * 100_000_000n;

interface Seen {
  root: string;
  home: string;
  chainId: string;
  created: unknown;
  aliceAmount: string;
  included: { status: string; hash: string | null; outcome: boolean };
  value: string;
  state: { key: string; value: string }[];
  pq: { status: unknown; publicKey: string; gasBurnt: string; listed: string[] };
  strict: { status: unknown; keyNonce: number; nonce: number; mode: string };
  gasKey: { status: unknown; final: string; nonceIndex: number; balance: string; burnt: string };
  reads: {
    gasKeyNonces: number[];
    receiptToTx: { transaction_hash: string; sender_account_id: string };
    txHash: string;
    block: number;
    gasPrice: string;
    blockEffects: boolean;
    genesisChainId: string;
    maintenanceWindows: unknown[];
    missingAccount: string | null;
    missingKey: unknown;
    noCode: string | null;
    tooPoor: string | null;
  };
  relayed: { status: unknown; gasBurnt: string; action: string; inner: unknown[] }[];
  bob: { amount: string; storage_usage: number } | null;
  fastForward: [number, number];
  dumped: string[];
  restarted: {
    height: number;
    heightBefore: number;
    value: string;
    bob: { amount: string; storage_usage: number } | null;
    sent: unknown;
  };
  reset: { hello: boolean; alice: boolean; sent: unknown };
  homeRemoved: boolean;
}

t.test("near-kit's Sandbox and client against nearlite", async (t) => {
  installOnce(INSTALL, 'near-kit', VERSION);
  const run = spawnSync(
    process.execPath,
    [join(import.meta.dirname, 'near_kit', 'driver.mjs'), INSTALL, ensureContract('main.wasm') as string],
    {
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, NEAR_SANDBOX_BIN_PATH: join(ROOT, 'packages', 'node', 'bin', 'near-sandbox') },
    },
  );
  t.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as Seen;
  const ok = { SuccessValue: '' };

  t.equal(r.chainId, 'localnet');
  t.equal(r.root, 'test.near', "the root account is the validator key's");
  t.same(r.created, ok);
  t.equal(r.aliceAmount, (10n * NEAR).toString());
  t.equal(r.included.status, 'INCLUDED', 'a transfer sent to wait for INCLUDED');
  t.notOk(r.included.outcome, 'answered from its chunk, before its block ran it: no outcome yet');
  t.match(r.included.hash, /^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  t.equal(r.value, 'hi', 'a call, then a view of what it wrote');
  t.same(r.state, [{ key: btoa('name'), value: btoa('hi') }]);

  t.same(r.pq.status, ok, 'a transfer signed by near-kit’s ML-DSA-65 key');
  t.equal(BigInt(r.pq.gasBurnt), ACTION_RECEIPT + TRANSFER + ML_DSA_65_VERIFICATION_COST);
  // nearcore's MlDsa65PublicKey::to_public_key_handle, computed here.
  const pk = bs58.decode(r.pq.publicKey.slice('ml-dsa-65:'.length));
  const handle = `ml-dsa-65-hash:${bs58.encode(
    createHash('sha3-256').update('near:ml-dsa-65-pubkey-hash:v1').update(pk).digest(),
  )}`;
  t.ok(r.pq.listed.includes(handle), 'listed by its handle');

  t.same(r.strict.status, ok);
  t.equal(r.strict.nonce, r.strict.keyNonce + 1, 'strict mode: exactly the next nonce');
  t.equal(r.strict.mode, 'strict');

  t.same(r.gasKey.status, ok, 'a transfer paid for by a gas key, with its nonce index 1');
  t.equal(r.gasKey.final, 'FINAL');
  t.equal(r.gasKey.nonceIndex, 1);
  t.equal(BigInt(r.gasKey.burnt), TRANSFER_BURNT);
  t.equal(BigInt(r.gasKey.balance), 2n * NEAR - TRANSFER_BURNT, 'the key paid what was burnt, no more');

  // Each read parsed by near-kit's schemas; its errors mapped to its classes.
  t.equal(r.reads.gasKeyNonces.length, 3, 'a nonce per index');
  t.ok(r.reads.gasKeyNonces[1]! > r.reads.gasKeyNonces[0]!, 'index 1 moved on');
  t.same(r.reads.receiptToTx, { transaction_hash: r.reads.txHash, sender_account_id: 'alice.test.near' });
  t.equal(r.reads.block, 1);
  t.equal(r.reads.gasPrice, '100000000', "the localnet's minimum gas price");
  t.ok(r.reads.blockEffects, 'block_effects');
  t.equal(r.reads.genesisChainId, 'localnet', 'genesis_config');
  t.same(r.reads.maintenanceWindows, [], 'maintenance_windows of the only validator: none');
  t.equal(r.reads.missingAccount, 'AccountDoesNotExistError');
  t.equal(r.reads.missingKey, null, 'an absent key is null to near-kit');
  t.equal(r.reads.noCode, 'FunctionCallError', 'a view of an account without code');
  t.equal(r.reads.tooPoor, 'InvalidTransactionError', 'NotEnoughBalance');

  t.same(
    r.relayed.map((x) => x.action),
    ['Delegate', 'DelegateV2', 'DelegateV2'],
    'relayed: a Delegate, a DelegateV2, one with a gas-key nonce',
  );
  for (const [i, x] of r.relayed.entries()) {
    t.same(x.status, ok, `relayed ${i}`);
    // The relayer pays the receipt, the delegate and the inner transfer's send fees.
    t.equal(BigInt(x.gasBurnt), ACTION_RECEIPT + DELEGATE + TRANSFER, `relayed ${i}: gas burnt`);
    t.ok(x.inner.length >= 2 && x.inner.every((s) => !('Failure' in (s as object))), `relayed ${i}: ran`);
  }

  t.same(r.bob && [r.bob.amount, r.bob.storage_usage], [NEAR.toString(), 182], 'patchState');
  t.ok(r.fastForward[1] >= r.fastForward[0] + 50, `fastForward: #${r.fastForward[0]} → #${r.fastForward[1]}`);

  for (const record of [
    'Account bob.test.near',
    'Contract hello.test.near',
    'Data hello.test.near name',
    'GasKeyNonce alice.test.near',
  ])
    t.ok(r.dumped.includes(record), `the dump holds ${record}`);
  t.equal(r.dumped.filter((d) => d === 'GasKeyNonce alice.test.near').length, 3, 'one record per nonce');

  t.ok(r.restarted.height < r.restarted.heightBefore, 'restart(dump): a new chain from its genesis');
  t.equal(r.restarted.value, 'hi', 'the contract and its state came through the dump');
  // Genesis recomputes storage usage: an account alone is its 100 bytes of overhead.
  t.same(r.restarted.bob && [r.restarted.bob.amount, r.restarted.bob.storage_usage], [NEAR.toString(), 100]);
  t.same(r.restarted.sent, ok, 'and the new chain takes transactions');

  t.same([r.reset.hello, r.reset.alice], [false, false], 'restart(): the first genesis again');
  t.same(r.reset.sent, ok);

  t.ok(r.homeRemoved, 'stop() removed the home');
  const left = spawnSync('pgrep', ['-f', r.home], { encoding: 'utf8' }).stdout.trim();
  t.equal(left, '', 'no process left running on it');
});
