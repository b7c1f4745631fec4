// Node 20 has the WebAssembly global, but neither lib.es2023 nor @types/node 20 declares it and the
// DOM lib would drag browser globals in; this declares the part the VM uses.
declare namespace WebAssembly {
  type ImportValue = Function | Global | Memory | number | bigint;
  type Imports = Record<string, Record<string, ImportValue>>;
  type ExportValue = Function | Global | Memory | Table;
  type Exports = Record<string, ExportValue>;
  interface Table {
    readonly length: number;
  }
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Exports;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Global {
    constructor(descriptor: { value: 'i32' | 'i64' | 'f32' | 'f64'; mutable?: boolean }, v?: number | bigint);
    value: number | bigint;
  }
  function validate(bytes: Uint8Array): boolean;
  class CompileError extends Error {}
  class LinkError extends Error {}
  class RuntimeError extends Error {}
}
