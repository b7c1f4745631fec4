import { urlForDisplay, withoutCredentials } from '@nearlite/primitives';
import t from 'tap';

t.test('urlForDisplay masks what may be a secret and keeps the rest readable', async (t) => {
  t.equal(urlForDisplay('https://mainnet.neardata.xyz'), 'https://mainnet.neardata.xyz', 'no path: as given');
  t.equal(urlForDisplay('http://127.0.0.1:3030/'), 'http://127.0.0.1:3030/');
  t.equal(
    urlForDisplay('http://127.0.0.1:3030/my-api-key'),
    'http://127.0.0.1:3030/***',
    'a key in the path',
  );
  t.equal(urlForDisplay('https://user:secret@rpc.example/'), 'https://user:***@rpc.example/', 'a password');
  t.equal(
    urlForDisplay('https://rpc.example?apiKey=abc&apiKey=def&x=1'),
    'https://rpc.example/?apiKey=***&x=***',
    'query values',
  );
  t.equal(urlForDisplay('file:/var/lake'), 'file:/var/lake', 'a directory is no secret');
  t.equal(urlForDisplay('not a url'), '(an unparsable URL)');
});

t.test('withoutCredentials moves the user part into a basic authorization header', async (t) => {
  t.same(withoutCredentials('https://rpc.example'), { url: 'https://rpc.example', headers: {} });
  t.same(withoutCredentials('https://op:p%40ss@rpc.example/key'), {
    url: 'https://rpc.example/key',
    headers: { authorization: `Basic ${Buffer.from('op:p@ss').toString('base64')}` },
  });
  t.same(withoutCredentials('http://op:pw@127.0.0.1:3030'), {
    url: 'http://127.0.0.1:3030',
    headers: { authorization: `Basic ${Buffer.from('op:pw').toString('base64')}` },
  });
});
