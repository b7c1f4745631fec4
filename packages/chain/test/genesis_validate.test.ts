// nearcore's genesis validation (core/chain-configs/src/genesis_validate.rs), with the cases of that
// file's own tests: its valid ristretto key, a validator `test` staking 10 of an account holding
// 100 + 10, and each way of breaking it, expecting nearcore's message. Then the real mainnet genesis
// and a localnet genesis, which nearcore accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GenesisRecord,
  generateKeyFile,
  genesisSemanticsErrors,
  loadGenesis,
  makeLocalnetGenesis,
  parseGenesis,
  validateGenesis,
} from '@nearlite/chain';
import t from 'tap';

const VALID_ED25519_RISTRETTO_KEY = 'ed25519:KuTCtARNzxZQ3YvXDeLjx83FDqxv2SdQTSbiq876zR7';
// PublicKey::empty(KeyType::ED25519): 32 zero bytes, no point of the curve's prime-order group.
const EMPTY_ED25519_KEY = 'ed25519:11111111111111111111111111111111';
const account = (id: string, amount = '100', locked = '10'): GenesisRecord => ({
  Account: {
    account_id: id,
    account: { amount, locked, code_hash: '11111111111111111111111111111111', storage_usage: 0 },
  },
});

function genesis(o: {
  validators?: { account_id: string; public_key: string; amount: string }[];
  totalSupply?: string;
  records: GenesisRecord[];
  extra?: Record<string, unknown>;
}) {
  return parseGenesis({
    protocol_version: 86,
    genesis_time: '2020-01-01T00:00:00.000000000Z',
    chain_id: 'test',
    genesis_height: 0,
    epoch_length: 60,
    gas_limit: 1000000000000000,
    min_gas_price: '100000000',
    max_gas_price: '10000000000000000000000',
    gas_price_adjustment_rate: [1, 100],
    online_min_threshold: [9, 10],
    online_max_threshold: [99, 100],
    transaction_validity_period: 100,
    total_supply: o.totalSupply ?? '110',
    validators: o.validators ?? [
      { account_id: 'test', public_key: VALID_ED25519_RISTRETTO_KEY, amount: '10' },
    ],
    protocol_treasury_account: 'test',
    ...o.extra,
    records: o.records,
  });
}

t.test('the base case passes', async (t) => {
  t.same(genesisSemanticsErrors(genesis({ records: [account('test')] })), []);
});

t.test("each of nearcore's own failing cases, in its words", async (t) => {
  const validator = (public_key: string, amount: string) => [{ account_id: 'test', public_key, amount }];
  const cases: [Parameters<typeof genesis>[0], string[]][] = [
    [
      { totalSupply: '0', records: [account('test')] },
      [
        'wrong total supply. account.locked() + account.amount() = 110 is not equal to the total supply = 0 specified in genesis config.',
      ],
    ],
    [
      { validators: validator(EMPTY_ED25519_KEY, '10'), records: [account('test')] },
      ['validator staking key is not valid'],
    ],
    [
      { validators: validator(VALID_ED25519_RISTRETTO_KEY, '100'), records: [account('test')] },
      ['Validator accounts do not match staked accounts.'],
    ],
    [
      { validators: [], records: [account('test')] },
      ['No validators in genesis', 'Validator accounts do not match staked accounts.'],
    ],
    [
      {
        records: [
          account('test'),
          {
            AccessKey: {
              account_id: 'test1',
              public_key: EMPTY_ED25519_KEY,
              access_key: { nonce: 0, permission: 'FullAccess' },
            },
          },
        ],
      },
      ['access key account test1 does not exist'],
    ],
    [
      {
        records: [
          account('test'),
          { Contract: { account_id: 'test', code: 'AQID' } },
          { Contract: { account_id: 'test', code: 'AQIDBA==' } },
        ],
      },
      ['account test has more than one contract deployed'],
    ],
  ];
  for (const [o, expected] of cases) t.same(genesisSemanticsErrors(genesis(o)), expected);
});

t.test('the other checks, and every failure reported together', async (t) => {
  const errors = genesisSemanticsErrors(
    genesis({
      totalSupply: '1100',
      validators: [
        { account_id: 'test', public_key: VALID_ED25519_RISTRETTO_KEY, amount: '10' },
        { account_id: 'test', public_key: VALID_ED25519_RISTRETTO_KEY, amount: '10' },
      ],
      records: [
        account('test'),
        account('test', '990', '0'),
        { Contract: { account_id: 'ghost', code: 'AQID' } },
      ],
      extra: {
        online_min_threshold: [3, 4],
        online_max_threshold: [6, 4],
        gas_price_adjustment_rate: [2, 2],
        epoch_length: 0,
      },
    }),
  );
  t.same(errors, [
    'Duplicate account id test in genesis records',
    // nearcore prints the number of accounts where it means validators' entries.
    'Duplicate account in validators. The number of account_ids: 1 does not match the number of validators: 1.',
    'contract account ghost does not exist,',
    'Online max threshold must be less or equal than 1, but current value is 3/2',
    'Gas price adjustment rate must be less than 1, value in config is 1',
    'Epoch Length must be greater than 0',
  ]);
  t.same(
    genesisSemanticsErrors(
      genesis({
        records: [account('test')],
        extra: { online_min_threshold: [99, 100], online_max_threshold: [9, 10] },
      }),
    ),
    ['Online max threshold 9/10 smaller than min threshold 99/100'],
  );
  t.same(
    genesisSemanticsErrors(
      genesis({
        records: [account('test')],
        extra: { online_min_threshold: [1, 10_000_000], online_max_threshold: [10_000_000, 10_000_001] },
      }),
    ),
    [
      "online_max_threshold's numerator is too large, may lead to overflow.",
      "online_max_threshold's denominator is too large, may lead to overflow.",
      "online_min_threshold's denominator is too large, may lead to overflow.",
    ],
  );
  t.throws(
    () => validateGenesis(genesis({ totalSupply: '1', records: [account('test')] }), 'g.json'),
    /genesis g\.json fails nearcore's genesis validation:\n {2}wrong total supply/,
  );
});

t.test("mainnet's genesis and a localnet genesis pass, as nearcore's node takes them", async (t) => {
  const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures');
  t.same(genesisSemanticsErrors(loadGenesis(join(fixtures, 'mainnet_genesis.json'))), []);
  t.ok(readFileSync(join(fixtures, 'mainnet_genesis.json')).length > 0);
  const raw = makeLocalnetGenesis({
    chainId: 'localnet',
    numShards: 4,
    epochLength: 60,
    validatorAccountId: 'test.near',
    validatorPublicKey: generateKeyFile('test.near').public_key,
    protocolVersion: 86,
  });
  t.same(genesisSemanticsErrors(parseGenesis(raw)), []);
});
