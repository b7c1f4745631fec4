// config.json as nearcore writes it, read back with defaults and nearcore's floors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  configFileJson,
  DEFAULT_CONFIG,
  dataDir,
  effectiveStore,
  genesisRecordsPath,
  loadConfig,
  parseHostPort,
  storeFromFlags,
} from '@nearlite/node';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

t.test('the file init writes reads back as the same config', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  const custom = { ...DEFAULT_CONFIG, rpcAddr: '0.0.0.0:4040', blockTimeMs: 1250, archive: true };
  writeFileSync(path, JSON.stringify(configFileJson(custom)));
  t.same(loadConfig(path), custom);
  const keeps = { ...custom, saveTrieChanges: true };
  writeFileSync(path, JSON.stringify(configFileJson(keeps)));
  t.same(loadConfig(path), keeps, 'save_trie_changes, when set');
  const split = { ...custom, genesisRecordsFile: 'records.json' };
  writeFileSync(path, JSON.stringify(configFileJson(split)));
  t.same(loadConfig(path), split, 'genesis_records_file, when set');
});

t.test("genesis_records_file (nearcore's): a file name, or absent or null", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ genesis_records_file: null }));
  t.equal(loadConfig(path).genesisRecordsFile, null);
  writeFileSync(path, JSON.stringify({ genesis_records_file: 7 }));
  t.throws(() => loadConfig(path), {
    name: 'ConfigError',
    message: /genesis_records_file must be a file name or null/,
  });
  t.equal(genesisRecordsPath('/h', DEFAULT_CONFIG), null, 'none: the records are in genesis.json');
  for (const [file, expected] of [
    ['records.json', '/h/records.json'],
    ['dump/records.json', '/h/dump/records.json'],
    ['/mnt/big/records.json', '/mnt/big/records.json'],
  ] as const) {
    writeFileSync(path, JSON.stringify({ genesis_records_file: file }));
    t.equal(
      genesisRecordsPath('/h', loadConfig(path)),
      expected,
      `${file}: as nearcore joins it to the home`,
    );
  }
});

t.test('missing fields take the defaults; gc keeps at least 3 epochs, as nearcore does', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ gc_num_epochs_to_keep: 1 }));
  t.same(loadConfig(path), {
    ...DEFAULT_CONFIG,
    gcNumEpochsToKeep: 3,
    gcNumEpochsToKeepAsWritten: 1,
    unrecognisedWarning: null,
  });

  writeFileSync(path, JSON.stringify({ trie_viewer_state_size_limit: null }));
  t.equal(loadConfig(path).trieViewerStateSizeLimit, null, 'null lifts the view_state limit');
});

t.test('an unreadable config is a ConfigError naming the file', async (t) => {
  const dir = tempDir(t, { 'config.json': '{ not json' });
  const path = join(dir, 'config.json');
  t.throws(() => loadConfig(path), { name: 'ConfigError', message: new RegExp(path) });
  t.throws(() => loadConfig(join(dir, 'absent.json')), ConfigError);
});

t.test("nearcore's example config reads; a field of the wrong type stops the start naming it", async (t) => {
  // nearcore's nearcore/res/example-config-gc.json: every field nearcore writes, most unused here.
  const example = loadConfig(join(import.meta.dirname, 'fixtures', 'nearcore_example_config_gc.json'));
  t.equal(example.rpcAddr, '0.0.0.0:3030');
  t.equal(example.jsonPayloadMaxSize, 10485760);
  t.equal(example.pollingTimeoutMs, 10_000);
  t.equal(example.archive, false);
  t.equal(example.gcNumEpochsToKeep, 24);
  t.equal(example.unrecognisedWarning, null, 'every field of it is known');
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  const cases: [unknown, RegExp][] = [
    [[], /is not a JSON object/],
    [{ rpc: 5 }, /rpc must be an object/],
    [{ rpc: { addr: 3030 } }, /rpc.addr must be "IP:PORT"/],
    [{ rpc: { limits_config: { json_payload_max_size: 'abc' } } }, /json_payload_max_size must be/],
    [{ rpc: { limits_config: { json_payload_max_size: 0 } } }, /json_payload_max_size must be above 0/],
    [{ rpc: { polling_config: { polling_timeout: 10 } } }, /polling_timeout must be a duration/],
    [{ consensus: { min_block_production_delay: { secs: -1, nanos: 0 } } }, /min_block_production_delay/],
    [{ consensus: { max_block_production_delay: { secs: 1, nanos: 0.5 } } }, /max_block_production_delay/],
    [{ archive: 'true' }, /archive must be true or false/],
    [{ sandbox: 1 }, /sandbox must be true or false/],
    [{ gc_num_epochs_to_keep: 'five' }, /gc_num_epochs_to_keep must be a non-negative integer/],
    // serde's Duration needs both fields, and nearcore's integers and booleans are not Options.
    [{ rpc: { polling_config: { polling_timeout: { secs: 1 } } } }, /polling_timeout must be a duration/],
    [{ consensus: { min_block_production_delay: { secs: 0, nanos: 1e9 } } }, /nanos below 1000000000/],
    [{ archive: null }, /archive must be true or false/],
    [{ gc_num_epochs_to_keep: null }, /gc_num_epochs_to_keep must be a non-negative integer/],
    // serde reads no Duration from null either.
    [{ consensus: { min_block_production_delay: null } }, /min_block_production_delay must be a duration/],
    [{ rpc: { polling_config: { polling_timeout: null } } }, /polling_timeout must be a duration/],
    [{ log_summary_period: null }, /log_summary_period must be a duration/],
    [{ log_summary_period: { secs: 0, nanos: 0 } }, /log_summary_period must be at least a millisecond/],
  ];
  for (const [raw, message] of cases) {
    writeFileSync(path, JSON.stringify(raw));
    t.throws(() => loadConfig(path), { name: 'ConfigError', message }, JSON.stringify(raw));
  }
});

t.test('RPC addresses: an IP address and a port, as nearcore parses a SocketAddr', async (t) => {
  t.same(parseHostPort('127.0.0.1:3030'), { host: '127.0.0.1', port: 3030 });
  t.same(parseHostPort('0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
  t.same(parseHostPort('[::1]:8080'), { host: '::1', port: 8080 });
  for (const bad of [
    ':9000',
    '127.0.0.1',
    '127.0.0.1:70000',
    'localhost:3030',
    'abc:3511',
    '::1:80',
    '[1.2.3.4]:80',
  ])
    t.throws(
      () => parseHostPort(bad, '--rpc-addr'),
      { name: 'ConfigError', message: `--rpc-addr: invalid socket address syntax: '${bad}'` },
      bad,
    );
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  for (const [rpc, message] of [
    [{ addr: 'abc:3511' }, /rpc\.addr: invalid socket address syntax: 'abc:3511'/],
    [{ prometheus_addr: 'nonsense' }, /rpc\.prometheus_addr: invalid socket address syntax: 'nonsense'/],
    [
      { addr: '127.0.0.1:3511', prometheus_addr: '127.0.0.1:3511' },
      /rpc\.prometheus_addr is rpc\.addr \(127\.0\.0\.1:3511\)/,
    ],
  ] as const) {
    writeFileSync(path, JSON.stringify({ rpc }));
    t.throws(() => loadConfig(path), { name: 'ConfigError', message }, JSON.stringify(rpc));
  }
  // nearcore's way to turn its RPC off: refused, never taken for the default address.
  writeFileSync(path, JSON.stringify({ rpc: null }));
  t.throws(
    () => loadConfig(path),
    {
      name: 'ConfigError',
      message: /rpc is null, which turns nearcore's RPC server off; nearlite always serves/,
    },
    'rpc: null',
  );
});

t.test("config.json values nearcore's ConfigValidator refuses are refused, with its messages", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  const cases: [object, string][] = [
    [
      { archive: false, save_trie_changes: false },
      'Configuration with archive = false and save_trie_changes = false is not supported because non-archival nodes must save trie changes in order to do do garbage collection.',
    ],
    [
      { consensus: { min_block_production_delay: { secs: 3, nanos: 0 } } },
      'min_block_production_delay: 3s is greater than max_block_production_delay: 2s',
    ],
    [
      {
        consensus: {
          min_block_production_delay: { secs: 1, nanos: 500_000_000 },
          max_block_production_delay: { secs: 0, nanos: 300_000_000 },
        },
      },
      'min_block_production_delay: 1.5s is greater than max_block_production_delay: 300ms',
    ],
    [
      { gc_num_epochs_to_keep: 0 },
      'gc config values should all be greater than 0, but gc_blocks_limit is 2, gc_fork_clean_step is 100, gc_num_epochs_to_keep is 0.',
    ],
  ];
  for (const [raw, issue] of cases) {
    writeFileSync(path, JSON.stringify(raw));
    t.throws(
      () => loadConfig(path),
      { name: 'ConfigError', message: `${path}: config.json semantic issue: ${issue}` },
      JSON.stringify(raw),
    );
  }
  writeFileSync(path, JSON.stringify({ archive: true, save_trie_changes: false }));
  t.equal(loadConfig(path).saveTrieChanges, false, 'an archival node may skip trie changes');
  writeFileSync(path, JSON.stringify({ max_gas_burnt_view: 300_000_000_000_000 }));
  t.equal(loadConfig(path).maxGasBurntView, 300_000_000_000_000n);
  writeFileSync(path, JSON.stringify({ max_gas_burnt_view: -1 }));
  t.throws(() => loadConfig(path), { name: 'ConfigError', message: /max_gas_burnt_view/ });
});

t.test('API keys and rate limits are read from rpc, and bad ones refused at start', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      rpc: { api_keys: ['k1'], rate_limit: { requests_per_second: 50, concurrent_view_calls: 4 } },
    }),
  );
  const c = loadConfig(path);
  t.same([c.apiKeys, c.requestsPerSecond, c.concurrentViewCalls], [['k1'], 50, 4]);
  for (const rpc of [{ api_keys: 'k1' }, { api_keys: ['a/b'] }, { rate_limit: { requests_per_second: 0 } }]) {
    writeFileSync(path, JSON.stringify({ rpc }));
    t.throws(() => loadConfig(path), ConfigError, JSON.stringify(rpc));
  }
  writeFileSync(path, JSON.stringify({ trie_viewer_state_size_limit: 'big' }));
  t.throws(() => loadConfig(path), ConfigError, 'a non-numeric state size limit');
  writeFileSync(path, JSON.stringify({ save_trie_changes: 'yes' }));
  t.throws(() => loadConfig(path), { name: 'ConfigError', message: /save_trie_changes/ });
});

t.test("nearcore's own store section (no kind) is the node's LevelDB", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  // What near-sandbox's library merges into config.json, and nearcore's defaults.
  writeFileSync(path, JSON.stringify({ store: { max_open_files: 3000 } }));
  t.same(loadConfig(path).store, { kind: 'leveldb', compression: false });
  writeFileSync(
    path,
    JSON.stringify({ store: { path: 'data', max_open_files: 10000, col_cache_sizes: {} } }),
  );
  t.same(loadConfig(path).store, { kind: 'leveldb', compression: false });
  writeFileSync(
    path,
    JSON.stringify({ store: { meta_url: 'postgres://h/meta', shard_urls: { 0: 'postgres://h/s0' } } }),
  );
  t.throws(
    () => loadConfig(path),
    { message: /need store\.kind 'postgres'/ },
    'PostgreSQL settings without their kind',
  );
  writeFileSync(path, JSON.stringify({ store: { kind: 'rocksdb' } }));
  t.throws(() => loadConfig(path), { message: /store\.kind must be 'leveldb' or 'postgres'/ });
});

t.test('rpc.cors_allowed_origins: nearcore\'s ["*"] by default, or a list of origins', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  t.same(DEFAULT_CONFIG.corsAllowedOrigins, ['*']);
  writeFileSync(
    path,
    JSON.stringify({ rpc: { cors_allowed_origins: ['https://a.example', 'http://localhost:3000'] } }),
  );
  t.same(loadConfig(path).corsAllowedOrigins, ['https://a.example', 'http://localhost:3000']);
  writeFileSync(path, JSON.stringify({ rpc: {} }));
  t.same(loadConfig(path).corsAllowedOrigins, ['*']);
  for (const bad of ['*', [], [''], [5], ['*', 'https://a.example']]) {
    writeFileSync(path, JSON.stringify({ rpc: { cors_allowed_origins: bad } }));
    t.throws(
      () => loadConfig(path),
      { name: 'ConfigError', message: /rpc\.cors_allowed_origins/ },
      JSON.stringify(bad),
    );
  }
});

t.test("store.path, nearcore's: the LevelDB's directory, relative to the home or absolute", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  t.equal(DEFAULT_CONFIG.storePath, null);
  t.equal(dataDir('/h', DEFAULT_CONFIG), '/h/data', 'absent: <home>/data');
  for (const [store, expected] of [
    [{ path: 'data', max_open_files: 10000 }, '/h/data'],
    [{ path: 'db/chain' }, '/h/db/chain'],
    [{ kind: 'leveldb', path: '/mnt/big/near' }, '/mnt/big/near'],
    [{ path: '../shared-db' }, '/shared-db'],
  ] as const) {
    writeFileSync(path, JSON.stringify({ store }));
    t.equal(dataDir('/h', loadConfig(path)), expected, JSON.stringify(store));
  }
  for (const bad of [5, '', ['data'], { dir: 'x' }]) {
    writeFileSync(path, JSON.stringify({ store: { path: bad } }));
    t.throws(
      () => loadConfig(path),
      { name: 'ConfigError', message: /store\.path must be a directory/ },
      JSON.stringify(bad),
    );
  }
  writeFileSync(
    path,
    JSON.stringify({
      store: {
        kind: 'postgres',
        path: 'data',
        meta_url: 'postgres://h/meta',
        shard_urls: { 0: 'postgres://h/s0' },
      },
    }),
  );
  t.throws(() => loadConfig(path), { name: 'ConfigError', message: /store\.path names a LevelDB directory/ });
});

t.test("a follower's LevelDB history takes store.compression, off unless set", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ store: { kind: 'leveldb' } }));
  t.same(loadConfig(path).store, { kind: 'leveldb', compression: false });
  writeFileSync(path, JSON.stringify({ store: { kind: 'leveldb', compression: true } }));
  t.same(loadConfig(path).store, { kind: 'leveldb', compression: true });
  t.same(DEFAULT_CONFIG.store, { kind: 'leveldb', compression: false });
  writeFileSync(path, JSON.stringify({ store: { kind: 'leveldb', compression: 'snappy' } }));
  t.throws(() => loadConfig(path), {
    name: 'ConfigError',
    message: /store\.compression must be true or false/,
  });
});

t.test("a PostgreSQL store's pool_size: the connections a process keeps to each database", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  const pg = { kind: 'postgres', meta_url: 'postgres://h/meta', shard_urls: { 0: 'postgres://h/s0' } };
  writeFileSync(path, JSON.stringify({ store: pg }));
  t.equal(
    (loadConfig(path).store as { poolSize?: number }).poolSize,
    undefined,
    'the default (8) when absent',
  );
  writeFileSync(path, JSON.stringify({ store: { ...pg, pool_size: 3 } }));
  const file = loadConfig(path).store;
  t.equal((file as { poolSize?: number }).poolSize, 3);
  for (const bad of [0, 1, 2.5, '4', 1001]) {
    writeFileSync(path, JSON.stringify({ store: { ...pg, pool_size: bad } }));
    t.throws(
      () => loadConfig(path),
      { name: 'ConfigError', message: /store\.pool_size must be/ },
      String(bad),
    );
  }
  // The flags name the databases; the file's pool size still applies to them.
  const flags = storeFromFlags('postgres://other/meta', ['0=postgres://other/s0'])!;
  t.same(effectiveStore(flags, file), { ...flags, poolSize: 3 });
  t.same(effectiveStore(undefined, file), file);
});

t.test('fields neither nearcore nor nearlite knows are named, as nearcore warns of them', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'config.json');
  writeFileSync(
    path,
    JSON.stringify({
      archive: true,
      archvie: false,
      rpc: {
        addr: '127.0.0.1:3030',
        api_key: ['k'],
        polling_config: { polling_timeout: { secs: 1, nanos: 0, ms: 1 } },
      },
      consensus: { min_block_production_delay: { secs: 1, nanos: 0 }, min_block_delay: 1 },
      network: { anything: 'of nearcore' },
      store: {
        kind: 'postgres',
        meta_url: 'postgres://h/m',
        shard_urls: { '0': 'postgres://h/s' },
        pool_sise: 4,
      },
    }),
  );
  t.equal(
    loadConfig(path).unrecognisedWarning,
    `${path}: encountered unrecognised fields: archvie, rpc.api_key, rpc.polling_config.polling_timeout.ms, consensus.min_block_delay, store.pool_sise`,
  );
  writeFileSync(path, JSON.stringify({ gc_step_period: { secs: 1, nanos: 0 }, oops: 1 }));
  t.equal(loadConfig(path).unrecognisedWarning, `${path}: encountered unrecognised field: oops`, 'one field');
  // A store without a kind is nearcore's section (StoreConfig): its fields, and nearlite's
  // compression, are known, the sections within it not looked into; a misspelt one is named, as
  // nearcore names it, rather than the database going quietly where `path` would not have put it.
  writeFileSync(
    path,
    JSON.stringify({
      store: {
        path: 'db',
        max_open_files: 10000,
        trie_cache: { anything: 1 },
        load_mem_tries_for_tracked_shards: true,
        rocksdb: { write_buffer_size: 1 },
        compression: true,
      },
    }),
  );
  t.equal(loadConfig(path).unrecognisedWarning, null);
  writeFileSync(path, JSON.stringify({ store: { pth: '/other-disk', max_open_file: 1 } }));
  t.equal(
    loadConfig(path).unrecognisedWarning,
    `${path}: encountered unrecognised fields: store.pth, store.max_open_file`,
  );
});
