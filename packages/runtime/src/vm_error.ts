// FunctionCallError presentation: nearcore's primitives form, used inside ActionError and by view calls
// (host errors and traps collapse into ExecutionError text, a link error too, as nearcore converts
// the VM's error), and Rust's Debug form (primitives' rustDebug) for the error strings.
import { type FunctionCallError, functionCallErrorMessage } from '@nearlite/vm';

export function functionCallErrorView(e: FunctionCallError): object {
  if ('HostError' in e || 'WasmTrap' in e) return { ExecutionError: functionCallErrorMessage(e) };
  if ('LinkError' in e) return { ExecutionError: `Link Error: ${e.LinkError.msg}` };
  return e as object;
}
