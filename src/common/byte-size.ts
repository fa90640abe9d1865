/** ES byte size values ("512mb", "1gb", "100b", plain numbers are bytes): ByteSizeValue.parse. */
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };

export function parseByteSize(value: string, settingName: string): number {
  const v = value.trim().toLowerCase();
  if (/^\d+$/.test(v)) return Number(v);
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb|pb)$/.exec(v);
  if (!m) throw new Error(`failed to parse setting [${settingName}] with value [${value}] as a size in bytes: unit is missing or unrecognized`);
  return Math.floor(Number(m[1]) * UNITS[m[2]]);
}

/** ES memory sizes: a byte size or a percentage of the heap ("10%"): MemorySizeValue.parse. */
export function parseMemorySize(value: string, settingName: string, heapBytes: number): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  if (!m) return parseByteSize(value, settingName);
  const pct = Number(m[1]);
  if (pct > 100) throw new Error(`failed to parse setting [${settingName}] with value [${value}]: percentage should be in [0-100], got [${m[1]}]`);
  return Math.floor((heapBytes * pct) / 100);
}
