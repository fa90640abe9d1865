/**
 * Reading one analysis component's settings (`index.analysis.<kind>.<name>.*`) the way ES's
 * Settings getters do: values arrive as strings (or lists of strings) and are parsed on use, with
 * ES's messages for bad values. Errors are AnalysisConfigError: the caller reports them as
 * `illegal_argument_exception`.
 */

/** An invalid analysis configuration; the message is ES's reason. */
export class AnalysisConfigError extends Error {}

export type ComponentSettings = Readonly<Record<string, unknown>>;

/** The settings of one named component, with typed getters. */
export class Params {
  constructor(
    readonly kind: string,
    readonly name: string,
    private readonly settings: ComponentSettings,
  ) {}

  has(key: string): boolean {
    return this.settings[key] !== undefined && this.settings[key] !== null;
  }

  private key(key: string): string {
    return `index.analysis.${this.kind}.${this.name}.${key}`;
  }

  string(key: string): string | null;
  string(key: string, fallback: string): string;
  string(key: string, fallback: string | null = null): string | null {
    const v = this.settings[key];
    if (v === undefined || v === null) return fallback;
    if (Array.isArray(v)) throw new AnalysisConfigError(`Failed to parse value for setting [${this.key(key)}]: expected a single value, got a list`);
    return String(v);
  }

  int(key: string, fallback: number): number {
    const v = this.string(key);
    if (v === null) return fallback;
    if (!/^-?\d+$/.test(v.trim())) throw new AnalysisConfigError(`Failed to parse value [${v.slice(0, 100)}] for setting [${this.key(key)}]`);
    return Number(v);
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.string(key);
    if (v === null) return fallback;
    if (v !== 'true' && v !== 'false') {
      throw new AnalysisConfigError(`Failed to parse value [${v.slice(0, 100)}] as only [true] or [false] are allowed.`);
    }
    return v === 'true';
  }

  /** ES Settings.getAsList: a list, or a single value as a one-element list. */
  list(key: string): string[] | null {
    const v = this.settings[key];
    if (v === undefined || v === null) return null;
    return Array.isArray(v) ? v.map(String) : [String(v)];
  }

  /** A `*_path` setting: reading files is not offered (nothing is read from the node's disk). */
  refusePath(key: string): void {
    if (this.has(key)) {
      throw new AnalysisConfigError(`[${key}] is not supported by this server: give the list inline instead (${this.kind} [${this.name}])`);
    }
  }
}
