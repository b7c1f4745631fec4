// JSON with comments as nearcore reads its config, genesis and key files: the json_comments crate's
// StripComments (v0.2.2), then serde_json. The expected texts are that crate's own tests and doc
// examples (src/lib.rs), with all comment styles on, as nearcore's strip_comments_from_json_str uses it.

import t from 'tap';
import { parseCommentedJson, stripJsonComments } from '../src/json_comments.js';

const strip = (s: string) => {
  const out = stripJsonComments(Buffer.from(s));
  return out === null ? null : Buffer.from(out).toString('utf8');
};

t.test("json_comments' own vectors", async (t) => {
  t.equal(strip('{/* Comment */"hi": /** abc */ "bye"}'), '{             "hi":            "bye"}');
  t.equal(
    strip('{/* Comment*PossibleEnd */"hi": /** abc */ "bye"}'),
    '{                         "hi":            "bye"}',
  );
  t.equal(strip('/** C **/ { "foo": 123 }'), '          { "foo": 123 }', 'a comment may end in **/');
  t.equal(
    strip('{\n            // line comment\n            "a": 4,\n            # another\n        }'),
    '{\n                           \n            "a": 4,\n                     \n        }',
  );
  t.equal(
    strip('{\n// c line comment\n"a": "comment in string /* a */",\n## shell line comment\n} /** end */'),
    '{\n                 \n"a": "comment in string /* a */",\n                     \n}           ',
  );
  for (const bad of ['"foo', '/* foo ', '/* foo *', '{"a": 1 / 2}', '/']) {
    t.equal(strip(bad), null, `${bad}: not closed, or a / that starts no comment`);
  }
  t.equal(
    strip('{"a": "b"} // to the end'),
    `{"a": "b"}${' '.repeat(14)}`,
    'a line comment may end the file',
  );
  t.equal(strip('{"a\\"/*": "#"}'), '{"a\\"/*": "#"}', 'escaped quotes do not end a string');
});

t.test('a block comment blanks its newlines too, as StripComments does', async (t) => {
  t.equal(strip('{/*\n*/}'), '{     }');
  // serde_json's positions are then those of the stripped text, and a config file's error names no
  // path (plain serde_json, not serde_path_to_error).
  t.throws(() => parseCommentedJson(Buffer.from('/*\n\n*/{"a":}')), {
    message: 'expected value at line 1 column 12',
  });
});

t.test('a commented file parses; a broken one says where, in serde_json words', async (t) => {
  const text = `{
    "name": /* full */ "John Doe",
    "age": 43,
    "phones": [
        "+44 1234567", // work phone
        "+44 2345678"  # home phone
    ]
}`;
  t.same(parseCommentedJson(Buffer.from(text)), {
    name: 'John Doe',
    age: 43,
    phones: ['+44 1234567', '+44 2345678'],
  });
  t.throws(() => parseCommentedJson(Buffer.from('{\n  "a": 1,\n  // b\n}\n')), {
    message: 'trailing comma at line 4 column 1',
  });
  t.throws(() => parseCommentedJson(Buffer.from('{"a": 1 /2}')), {
    message: 'a string or a /* comment is not closed, or a / starts no comment',
  });
});
