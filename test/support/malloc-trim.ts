/** Whether this machine can trim glibc's heaps (cluster/malloc-trim.ts): Linux with glibc, and the optional FFI package installed. */
import { FFI_PACKAGE } from '../../src/cluster/malloc-trim.js';

export async function mallocTrimAvailable(): Promise<boolean> {
  const header = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header;
  if (process.platform !== 'linux' || header.glibcVersionRuntime === undefined) return false;
  try {
    const specifier: string = FFI_PACKAGE;
    await import(specifier);
    return true;
  } catch {
    return false;
  }
}
