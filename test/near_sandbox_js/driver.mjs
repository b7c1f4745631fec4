// Drives near-sandbox (the npm library, installed in the directory given as the first argument) the
// way its README does, with NEAR_SANDBOX_BIN_PATH naming nearlite's launcher: Sandbox.start with an
// extra genesis account and genesis and config overrides, a transfer signed with the library's
// default account key, then tearDown. Prints what the test checks as JSON.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Account, JsonRpcProvider, KeyPair, KeyPairSigner } from 'near-api-js';

const require = createRequire(join(process.argv[2], 'package.json'));
const { Sandbox, GenesisAccount, DEFAULT_ACCOUNT_ID, DEFAULT_PRIVATE_KEY } = require('near-sandbox');

const NEAR = 10n ** 24n;
const aliceKey = KeyPair.fromRandom('ed25519');
const alice = new GenesisAccount(
  'alice.sandbox',
  aliceKey.getPublicKey().toString(),
  aliceKey.toString(),
  50n * NEAR,
);
const sandbox = await Sandbox.start({
  config: {
    additionalAccounts: [alice],
    additionalGenesis: { transaction_validity_period: 1000 },
    additionalConfig: { gc_num_epochs_to_keep: 7 },
  },
});
const home = sandbox.homeDir;
const genesis = JSON.parse(readFileSync(join(home, 'genesis.json'), 'utf8'));
const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));
const provider = new JsonRpcProvider({ url: sandbox.rpcUrl });
const root = new Account(DEFAULT_ACCOUNT_ID, provider, KeyPairSigner.fromSecretKey(DEFAULT_PRIVATE_KEY));
await root.transfer({ receiverId: 'alice.sandbox', amount: 2n * NEAR });
const aliceAccount = await provider.viewAccount({ accountId: 'alice.sandbox' });
const aliceSigner = new Account('alice.sandbox', provider, new KeyPairSigner(aliceKey));
await aliceSigner.transfer({ receiverId: DEFAULT_ACCOUNT_ID, amount: NEAR });
const rootAccount = await provider.viewAccount({ accountId: DEFAULT_ACCOUNT_ID });
const keyFile = existsSync(join(home, 'alice.sandbox.json'));
// Refund receipts may still be in flight when a transfer answers (EXECUTED_OPTIMISTIC waits for the
// others): three more blocks, and the state the dump reads is settled.
const heightNow = async () => (await provider.viewBlock({ finality: 'optimistic' })).header.height;
const settledAt = (await heightNow()) + 3;
while ((await heightNow()) < settledAt) await new Promise((r) => setTimeout(r, 50));
const dump = await sandbox.dump();
const dumped = (id) => dump.genesis.records.find((r) => r.Account?.account_id === id)?.Account.account.amount;
await sandbox.tearDown();
process.stdout.write(
  JSON.stringify({
    home,
    homeRemoved: !existsSync(home),
    epochLength: genesis.epoch_length,
    validityPeriod: genesis.transaction_validity_period,
    minDelay: config.consensus.min_block_production_delay,
    maxDelay: config.consensus.max_block_production_delay,
    gcEpochs: config.gc_num_epochs_to_keep,
    keyFile,
    dumpKeys: Object.keys(dump).sort(),
    dumpedAlice: dumped('alice.sandbox'),
    dumpedRoot: dumped(DEFAULT_ACCOUNT_ID),
    dumpedHeight: dump.genesis.genesis_height,
    dumpedValidatorKey: dump.validatorKey?.account_id,
    aliceAmount: String(aliceAccount.amount),
    rootAmount: String(rootAccount.amount),
  }),
);
