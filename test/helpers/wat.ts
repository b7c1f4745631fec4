// WebAssembly text to a contract's bytes, through wabt.
import { createRequire } from 'node:module';

type Wabt = {
  parseWat(name: string, src: string): { toBinary(o: object): { buffer: Uint8Array }; destroy(): void };
};
const require = createRequire(import.meta.url);
const wabt: Promise<Wabt> = (require('wabt') as () => Promise<Wabt>)();

export async function wat(src: string): Promise<Uint8Array> {
  const m = (await wabt).parseWat('contract.wat', src);
  try {
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}
