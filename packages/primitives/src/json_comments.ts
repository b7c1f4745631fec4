// nearcore reads its config, genesis and key files as JSON with comments: each file goes through the
// json_comments crate's StripComments first (near_config_utils::strip_comments_from_json_str), which
// turns every byte of a `/* … */`, `// …` or `# …` comment into a space, keeps a line comment's
// newline, and leaves strings alone. serde_json then reads the result, so its positions are the
// file's. A home written for nearcore, comments and all, opens here the same way.
import { jsonSyntaxError } from './json_syntax.js';

const SPACE = 0x20;

/**
 * The bytes with every comment blanked as StripComments blanks it, or null where StripComments
 * fails: a `/` that starts no comment, or a string or block comment still open at the end.
 */
export function stripJsonComments(input: Uint8Array): Uint8Array | null {
  // Most files have no comment: the bytes are copied only once one is found.
  let out = input;
  const blank = (i: number) => {
    if (out === input) out = Uint8Array.from(input);
    out[i] = SPACE;
  };
  // Top, in a string, after a backslash there, after a `/`, in a block comment, after a `*` there,
  // in a line comment.
  let state: 'top' | 'string' | 'escape' | 'slash' | 'block' | 'star' | 'line' = 'top';
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    switch (state) {
      case 'top':
        if (c === 0x22) state = 'string';
        else if (c === 0x2f || c === 0x23) {
          blank(i);
          state = c === 0x2f ? 'slash' : 'line';
        }
        break;
      case 'string':
        if (c === 0x22) state = 'top';
        else if (c === 0x5c) state = 'escape';
        break;
      case 'escape':
        state = 'string';
        break;
      case 'slash':
        if (c !== 0x2a && c !== 0x2f) return null;
        blank(i);
        state = c === 0x2a ? 'block' : 'line';
        break;
      case 'block':
        blank(i);
        if (c === 0x2a) state = 'star';
        break;
      case 'star':
        blank(i);
        // A run of stars may end the comment at its last one (`**/`).
        if (c === 0x2f) state = 'top';
        else if (c !== 0x2a) state = 'block';
        break;
      case 'line':
        if (c === 0x0a) state = 'top';
        else blank(i);
        break;
    }
  }
  return state === 'top' || state === 'line' ? out : null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A JSON file as nearcore reads it: comments stripped, then the JSON. Throws an Error whose message
 * says why not, in serde_json's words and at its line and column where the JSON is at fault.
 */
export function parseCommentedJson(bytes: Uint8Array): unknown {
  const stripped = stripJsonComments(bytes);
  if (stripped === null) {
    throw new Error('a string or a /* comment is not closed, or a / starts no comment');
  }
  try {
    return JSON.parse(UTF8.decode(stripped));
  } catch (err) {
    throw new Error(jsonSyntaxError(stripped, false) ?? (err as Error).message);
  }
}
