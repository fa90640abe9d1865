/**
 * Reading a processor's configuration the way ES's ConfigurationUtils does: every option is
 * removed from the map as it is read, so whatever is left at the end is an unknown option; type
 * and presence errors carry ES's wording ("[field] required property is missing", "property isn't
 * a string, but of type [java.lang.Integer]") and the processor's type, tag and property name.
 */
import { IngestConfigurationError } from '../errors/index.js';
import { isPlainObject } from '../common/json.js';
import { javaType, type JsonMap } from './ingest-document.js';

export class ProcessorConfig {
  private readonly map: JsonMap;

  constructor(readonly type: string, readonly tag: string | null, config: JsonMap) {
    this.map = { ...config };
  }

  error(property: string | null, reason: string): IngestConfigurationError {
    return new IngestConfigurationError(reason, { processorType: this.type, processorTag: this.tag, propertyName: property });
  }

  has(name: string): boolean {
    return this.map[name] !== undefined && this.map[name] !== null;
  }

  /** Removes and returns the raw value (null when absent), as ConfigurationUtils' readers do first. */
  take(name: string): unknown {
    const v = this.map[name];
    delete this.map[name];
    return v === undefined ? null : v;
  }

  string(name: string, def?: string): string {
    const v = this.take(name);
    if (v === null) {
      if (def !== undefined) return def;
      throw this.error(name, 'required property is missing');
    }
    if (typeof v !== 'string') throw this.error(name, `property isn't a string, but of type [${javaType(v)}]`);
    return v;
  }

  optionalString(name: string): string | null {
    const v = this.take(name);
    if (v === null) return null;
    if (typeof v !== 'string') throw this.error(name, `property isn't a string, but of type [${javaType(v)}]`);
    return v;
  }

  bool(name: string, def: boolean): boolean {
    const v = this.take(name);
    if (v === null) return def;
    if (typeof v !== 'boolean') throw this.error(name, `property isn't a boolean, but of type [${javaType(v)}]`);
    return v;
  }

  /** A required value of any JSON type (set's and append's `value`). */
  object(name: string): unknown {
    const v = this.take(name);
    if (v === null) throw this.error(name, 'required property is missing');
    return v;
  }

  list(name: string): unknown[] {
    const v = this.take(name);
    if (v === null) throw this.error(name, 'required property is missing');
    if (!Array.isArray(v)) throw this.error(name, `property isn't a list, but of type [${javaType(v)}]`);
    return v;
  }

  optionalList(name: string): unknown[] | null {
    const v = this.take(name);
    if (v === null) return null;
    if (!Array.isArray(v)) throw this.error(name, `property isn't a list, but of type [${javaType(v)}]`);
    return v;
  }

  optionalMap(name: string): JsonMap | null {
    const v = this.take(name);
    if (v === null) return null;
    if (!isPlainObject(v)) throw this.error(name, `property isn't a map, but of type [${javaType(v)}]`);
    return v;
  }

  /** A string or a list of strings (remove's `field`, date's `formats` accept both in ES 8). */
  stringOrList(name: string): string[] {
    const v = this.take(name);
    if (v === null) throw this.error(name, 'required property is missing');
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    throw this.error(name, `property isn't a list or string, but of type [${javaType(v)}]`);
  }

  /** Options nobody read: ES refuses them after the processor is built. */
  leftovers(): string[] {
    return Object.keys(this.map);
  }
}
