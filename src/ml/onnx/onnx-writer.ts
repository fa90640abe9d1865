/**
 * Writes ONNX `ModelProto` bytes (onnx.proto, IR version 8) without a protobuf library: the few
 * messages a feed-forward graph needs — nodes with int/float/ints attributes, float/int64
 * initializers as raw little-endian data, typed inputs/outputs with symbolic dimensions. Used to
 * generate the BERT-shaped graphs (bert-graph.ts) locally, so no weights are ever downloaded.
 *
 * Field numbers are onnx.proto's: ModelProto{ir_version 1, producer_name 2, graph 7, opset_import 8},
 * GraphProto{node 1, name 2, initializer 5, input 11, output 12}, NodeProto{input 1, output 2,
 * name 3, op_type 4, attribute 5}, AttributeProto{name 1, f 2, i 3, ints 8, type 20},
 * TensorProto{dims 1, data_type 2, name 8, raw_data 9}, ValueInfoProto{name 1, type 2},
 * TypeProto{tensor_type 1}, TypeProto.Tensor{elem_type 1, shape 2}, TensorShapeProto{dim 1},
 * Dimension{dim_value 1, dim_param 2}, OperatorSetIdProto{domain 1, version 2}.
 */

/** TensorProto.DataType values used here. */
export const FLOAT = 1;
export const INT64 = 7;

export type Attribute = { readonly i: number } | { readonly f: number } | { readonly ints: readonly number[] };

export interface OnnxNode {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes?: Readonly<Record<string, Attribute>>;
}

export interface OnnxTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  readonly name: string;
  readonly elemType: typeof FLOAT | typeof INT64;
  /** A number is a fixed size, a string a symbolic one (`batch`, `sequence`). */
  readonly shape: ReadonlyArray<number | string>;
}

export interface OnnxGraph {
  readonly name: string;
  readonly nodes: readonly OnnxNode[];
  readonly initializers: readonly OnnxTensor[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  readonly opset: number;
}

/** Protobuf wire types. */
const VARINT = 0;
const FIXED32 = 5;
const LENGTH_DELIMITED = 2;

/** A message being written: chunks are concatenated once at the end. */
class Message {
  readonly chunks: Uint8Array[] = [];
  length = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  private varint(value: number | bigint): void {
    // Negative int64 values are written as their 64-bit two's complement (10 bytes), as protobuf does.
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number): this {
    this.key(field, VARINT);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, FIXED32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, LENGTH_DELIMITED);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, m: Message): this {
    this.key(field, LENGTH_DELIMITED);
    this.varint(m.length);
    for (const c of m.chunks) this.push(c);
    return this;
  }

}

function attribute(name: string, a: Attribute): Message {
  const m = new Message().string(1, name);
  // AttributeType: FLOAT 1, INT 2, INTS 7.
  if ('f' in a) return m.float(2, a.f).int(20, 1);
  if ('i' in a) return m.int(3, a.i).int(20, 2);
  for (const v of a.ints) m.int(8, v);
  return m.int(20, 7);
}

function node(n: OnnxNode, index: number): Message {
  const m = new Message();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  m.string(3, `${n.op}_${index}`).string(4, n.op);
  for (const [name, a] of Object.entries(n.attributes ?? {})) m.message(5, attribute(name, a));
  return m;
}

function tensor(t: OnnxTensor): Message {
  const m = new Message();
  for (const d of t.dims) m.int(1, d);
  m.int(2, t.data instanceof Float32Array ? FLOAT : INT64).string(8, t.name);
  // Raw data is little-endian; so are the typed arrays on every platform Node supports.
  return m.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(v: OnnxValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) shape.message(1, typeof d === 'number' ? new Message().int(1, d) : new Message().string(2, d));
  const tensorType = new Message().int(1, v.elemType).message(2, shape);
  return new Message().string(1, v.name).message(2, new Message().message(1, tensorType));
}

/**
 * The serialised model as chunks in file order: initializer payloads are referenced, not copied,
 * so a half-gigabyte graph can be streamed to a file without a second copy in memory.
 */
export function encodeOnnxModel(g: OnnxGraph): { chunks: readonly Uint8Array[]; length: number } {
  const graph = new Message();
  g.nodes.forEach((n, i) => graph.message(1, node(n, i)));
  graph.string(2, g.name);
  for (const t of g.initializers) graph.message(5, tensor(t));
  for (const v of g.inputs) graph.message(11, valueInfo(v));
  for (const v of g.outputs) graph.message(12, valueInfo(v));
  return new Message()
    .int(1, 8)
    .string(2, 'threadsearch')
    .message(7, graph)
    .message(8, new Message().string(1, '').int(2, g.opset));
}

/** The serialised model in one buffer. */
export function writeOnnxModel(g: OnnxGraph): Uint8Array {
  const { chunks, length } = encodeOnnxModel(g);
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
