// nearcore's genesis file: its records in `records`, in the file `records_file` names, or in a node
// config's `genesis_records_file` (which wins), and the errors of each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GenesisError, loadGenesis, loadGenesisConfig } from '@nearlite/chain';
import t from 'tap';
import { fixedLocalnetGenesis } from '../../../test/helpers/localnet_genesis.js';
import { tempDir } from '../../../test/helpers/tmp.js';

const genesis = fixedLocalnetGenesis('test-chain-records');

t.test('records inline, from records_file, and from a node config’s file', async (t) => {
  const dir = tempDir(t);
  const { records, ...config } = genesis;
  const other = [{ Account: { account_id: 'other.near', account: {} } }];
  writeFileSync(join(dir, 'records.json'), JSON.stringify(records));
  writeFileSync(join(dir, 'other.json'), JSON.stringify(other));
  writeFileSync(join(dir, 'inline.json'), JSON.stringify(genesis));
  writeFileSync(
    join(dir, 'split.json'),
    JSON.stringify({ ...config, records_file: join(dir, 'records.json') }),
  );
  const inline = loadGenesis(join(dir, 'inline.json'));
  const split = loadGenesis(join(dir, 'split.json'));
  t.same(split.records, records);
  t.same(split.config, inline.config, 'records_file is no part of the config');
  t.notOk('records_file' in split.config.raw);
  t.same(
    loadGenesis(join(dir, 'inline.json'), join(dir, 'other.json')).records,
    other,
    'the config’s file wins',
  );
  t.same(loadGenesis(join(dir, 'split.json'), join(dir, 'other.json')).records, other);
  t.same(loadGenesisConfig(join(dir, 'split.json')), inline.config);
  writeFileSync(join(dir, 'bare.json'), JSON.stringify(config));
  t.same(loadGenesisConfig(join(dir, 'bare.json')), inline.config, 'a reader needs no records');
});

t.test('a genesis and its records file may carry comments, as nearcore strips them from both', async (t) => {
  const dir = tempDir(t);
  const { records, ...config } = genesis;
  writeFileSync(join(dir, 'records.json'), `// the records\n${JSON.stringify(records)} /* end */\n`);
  const text = JSON.stringify({ ...config, records_file: join(dir, 'records.json') }, null, 2);
  writeFileSync(join(dir, 'split.json'), `# a genesis\n${text.replace('{', '{ /* its config */')}\n`);
  const split = loadGenesis(join(dir, 'split.json'));
  t.same(split.records, records);
  t.equal(split.config.chainId, 'test-chain-records');
});

t.test('what a genesis file without its records is told', async (t) => {
  const dir = tempDir(t);
  const { records: _records, ...config } = genesis;
  writeFileSync(join(dir, 'bare.json'), JSON.stringify(config));
  t.throws(() => loadGenesis(join(dir, 'bare.json')), {
    name: 'GenesisError',
    message: /'records' must be an array/,
  });
  writeFileSync(
    join(dir, 'gone.json'),
    JSON.stringify({ ...config, records_file: join(dir, 'absent.json') }),
  );
  t.throws(() => loadGenesis(join(dir, 'gone.json')), {
    message: new RegExp(`cannot read genesis records file ${join(dir, 'absent.json')}`),
  });
  writeFileSync(join(dir, 'obj.json'), '{"Account": {}}');
  t.throws(() => loadGenesis(join(dir, 'bare.json'), join(dir, 'obj.json')), {
    message: /genesis records file .*obj\.json is not a JSON array/,
  });
  t.throws(() => loadGenesis(join(dir, 'absent.json')), GenesisError);
});
