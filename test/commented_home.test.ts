// A home written for nearcore may carry comments in its JSON files: nearcore strips `//`, `/* */`
// and `#` comments from config.json, genesis.json and its key files before reading them
// (near_config_utils::strip_comments_from_json_str). Such a home starts here as it is, and a file
// that is not JSON stops the start naming the file, the line and the column.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { initHome, refused, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/** The file's JSON again, with a comment of each kind around and inside it. */
function annotate(path: string): void {
  const pretty = JSON.stringify(JSON.parse(readFileSync(path, 'utf8')), null, 2);
  const lines = pretty.split('\n');
  const out = [
    '# written by hand',
    lines[0],
    '  /* a block comment',
    '     over two lines */',
    ...lines.slice(1, -1).map((l, i) => (i % 3 === 0 ? `${l} // note ${i}` : l)),
    lines.at(-1),
    '// the end',
  ];
  writeFileSync(path, out.join('\n'));
}

t.test('config, genesis and key files with comments are read as nearcore reads them', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const genesis = JSON.parse(readFileSync(join(home, 'genesis.json'), 'utf8')) as { chain_id: string };
  for (const f of ['config.json', 'genesis.json', 'validator_key.json', 'node_key.json'])
    annotate(join(home, f));
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const status = (await node.rpc<{ chain_id: string; node_public_key: string }>('status', [])).body.result!;
  t.equal(status.chain_id, genesis.chain_id, 'the genesis was read');
  const nodeKey = readFileSync(join(home, 'node_key.json'), 'utf8');
  t.ok(nodeKey.includes(status.node_public_key), 'the node key was read');
});

t.test('a config file that is not JSON stops the start at its line and column', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const path = join(home, 'config.json');
  const text = readFileSync(path, 'utf8');
  // A trailing comma after the last member, on a line of its own.
  writeFileSync(path, text.replace(/\n}\s*$/, ',\n}\n'));
  const lines = readFileSync(path, 'utf8').split('\n').length - 1;
  refused(
    t,
    ['run', '--home', home],
    new RegExp(`config\\.json: trailing comma at line ${lines} column 1`),
    'a trailing comma',
  );
  writeFileSync(path, `${text.trimEnd()} /* never closed`);
  refused(
    t,
    ['run', '--home', home],
    /config\.json: a string or a \/\* comment is not closed/,
    'an open comment',
  );
});
