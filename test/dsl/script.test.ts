/**
 * The Painless subset on its own: parsing, Painless's typing (int, long, float and double
 * arithmetic as Java computes it, def values typed from params and the mapping), and the compile
 * and runtime errors ES reports, with their offsets. Scripts run through the worker's evaluator
 * (search/script/) over a stand-in segment without fields.
 */
import { describe, expect, it } from 'vitest';
import { compileScript, MAX_SCRIPT_CHAIN, MAX_SCRIPT_DEPTH, type FieldAccess } from '../../src/dsl/index.js';
import { EsError } from '../../src/errors/index.js';
import type { Segment } from '../../src/index/index.js';
import { scriptProgram } from '../../src/search/script/script-program.js';

const FIELDS: Record<string, FieldAccess> = { likes: { vt: 'long' }, price: { vt: 'double' } };
const NO_DOCS = { fields: new Map(), indexOrder: { get: () => 0 } } as unknown as Segment;

function compile(source: string, params: Record<string, unknown> = {}, score = true) {
  return compileScript({ source, lang: 'painless', params }, {
    params, score, returns: score ? 'double' : 'any', randomSalt: 0,
    field: (name) => FIELDS[name] ?? { error: { type: 'illegal_argument_exception', reason: `No field found for [${name}] in mapping` } },
  });
}

/** The script's value for a document without values, with `_score` 1.5. */
function run(source: string, params: Record<string, unknown> = {}, score = true): unknown {
  return scriptProgram(compile(source, params, score)).bind(NO_DOCS)(0, 1.5);
}

function failure(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return (e as EsError).toObject();
  }
  throw new Error('expected a failure');
}

describe('painless subset: values', () => {
  it('Java arithmetic per type: int wraps, integer division truncates, float rounds, double is IEEE', () => {
    expect(run('7 / 2', {}, false)).toBe(3);
    expect(run('-7 / 2', {}, false)).toBe(-3);
    expect(run('-7 % 3', {}, false)).toBe(-1);
    expect(run('7 / 2.0', {}, false)).toBe(3.5);
    expect(run('2147483647 + 1', {}, false)).toBe(-2147483648);
    expect(run('2147483647L + 1', {}, false)).toBe(2147483648);
    expect(run('0x10 + 010', {}, false)).toBe(24);
    expect(run('0.1f + 0.2f', {}, false)).toBe(Math.fround(Math.fround(0.1) + Math.fround(0.2)));
    expect(run('1.0 / 0', {}, false)).toBe(Infinity);
    expect(Number.isNaN(run('0.0 / 0.0', {}, false))).toBe(true);
    expect(run('-2147483648', {}, false)).toBe(-2147483648);
    expect(run('(int) 3.99 + (long) -2.5 + (int) 1e20', {}, false)).toBe(3 - 2 + 2147483647);
    expect(run('(double) 7 / 2', {}, false)).toBe(3.5);
  });

  it('params are def values of their JSON types; _score is a double', () => {
    expect(run('params.a / params.b', { a: 7, b: 2 })).toBe(3);
    expect(run('params.a / params.b', { a: 7, b: 2.5 })).toBe(2.8);
    expect(run("params['a'] * _score", { a: 2 })).toBe(3);
    expect(run('params.m.k + 1', { m: { k: 4 } })).toBe(5);
    expect(run('params.v[1] + params.v.size()', { v: [1, 5] })).toBe(7);
    expect(run('params.m == params.n && params.v != params.m ? 1 : 0', { m: { a: 1, b: [2] }, n: { b: [2], a: 1 }, v: [1] })).toBe(1);
  });

  it('Math (double functions, round to long), the score functions, comparisons, logic and ?:', () => {
    expect(run('Math.max(1, 2)')).toBe(2);
    expect(run('Math.round(2.5) + Math.round(-2.5)')).toBe(1);
    expect(run('Math.log10(1000) + Math.sqrt(16) + Math.pow(2, 3) + Math.abs(-1) + Math.floor(1.5) + Math.ceil(1.2) + Math.signum(-3)')).toBe(3 + 4 + 8 + 1 + 1 + 2 - 1);
    expect(run('Math.atan2(1, 1) * 4')).toBe(Math.PI);
    expect(run('Math.E + Math.PI')).toBe(Math.E + Math.PI);
    expect(run('saturation(3, 1)')).toBe(0.75);
    expect(run('sigmoid(2, 2, 3)')).toBe(0.5);
    expect(run('decayNumericLinear(0, 10, 0, 0.5, 10)')).toBe(0.5);
    expect(run('decayNumericExp(0, 10, 0, 0.5, 10)')).toBeCloseTo(0.5, 12);
    expect(run('decayNumericGauss(0, 10, 0, 0.5, 10)')).toBeCloseTo(0.5, 12);
    expect(run('1 < 2 && !(2 <= 1) || false ? 1 : 0')).toBe(1);
    expect(run("'a' == 'a' && 1 == 1.0 && params.s != 'b' ? 2 : 3", { s: 'a' })).toBe(2);
    expect(run("'x' + 1 + 1.0 + true", {}, false)).toBe('x11.0true');
    expect(run('return 1 + 1;')).toBe(2);
    expect(run("params.s.length() + (params.s.contains('b') ? 10 : 0) + (params.s.startsWith('a') && params.s.endsWith('c') ? 100 : 0)", { s: 'abc' })).toBe(113);
    expect(run("params.s.toUpperCase() + params.s.trim().isEmpty() + params.s.equals('x')", { s: ' x ' }, false)).toBe(' X falsefalse');
    expect(run("doc.containsKey('likes') && !doc.containsKey('nope') ? 1 : 0")).toBe(1);
    // trim is linear: a long inner run of spaces (quadratic for a `[ ]+$` regex) and control chars at the ends
    const inner = `x${' '.repeat(200_000)}x`;
    expect(run('params.s.trim().length()', { s: `\t\n ${inner} \u0000` })).toBe(inner.length);
    expect(run("params.s.trim() + '|'", { s: '  \u0001 ' }, false)).toBe('|');
    expect(failure(() => run('params.s.constructor()', { s: 'a' })).caused_by).toMatchObject({ type: 'illegal_argument_exception' });
    expect(run('  1 + /* c */ 1 // end\n')).toBe(2);
  });
});

describe('painless subset: compile errors', () => {
  it('a script_exception with the ±25-character snippet, the offset and the Java cause', () => {
    expect(failure(() => compile('1 + foo'))).toEqual({
      type: 'script_exception', reason: 'compile error', script_stack: ['1 + foo', '    ^---- HERE'], script: '1 + foo', lang: 'painless',
      position: { offset: 4, start: 0, end: 7 }, caused_by: { type: 'illegal_argument_exception', reason: 'cannot resolve symbol [foo]' },
    });
    const long = `${'1 + '.repeat(20)}x`;
    expect(failure(() => compile(long))).toMatchObject({
      script_stack: [`... ${long.slice(55, 81)}`, `    ${' '.repeat(25)}^---- HERE`], position: { offset: 80, start: 55, end: 81 },
    });
  });

  it('what Painless refuses at compile time, and what the subset does not run', () => {
    const cause = (source: string) => failure(() => compile(source)).caused_by;
    expect(cause('1 +')).toEqual({ type: 'illegal_argument_exception', reason: 'unexpected end of script.' });
    expect(cause('1 1')).toEqual({ type: 'illegal_argument_exception', reason: 'invalid sequence of tokens near [\'1\'].' });
    expect(cause('1 # 2')).toEqual({ type: 'illegal_argument_exception', reason: 'unexpected character [#].' });
    expect(cause('true')).toEqual({ type: 'class_cast_exception', reason: 'Cannot cast from [boolean] to [double].' });
    expect(cause("'a'")).toEqual({ type: 'class_cast_exception', reason: 'Cannot cast from [java.lang.String] to [double].' });
    expect(cause('true + 1')).toEqual({ type: 'class_cast_exception', reason: 'Cannot apply [+] operation to types [boolean] and [int].' });
    expect(cause('1 / 0')).toEqual({ type: 'arithmetic_exception', reason: '/ by zero' });
    expect(cause('2147483648')).toEqual({ type: 'illegal_argument_exception', reason: 'Invalid int constant [2147483648].' });
    expect(cause('Math.nope(1)')).toEqual({ type: 'illegal_argument_exception', reason: 'static method [java.lang.Math, nope/1] not found' });
    expect(cause('nope(1)')).toEqual({ type: 'illegal_argument_exception', reason: 'Unknown call [nope] with [1] arguments.' });
    expect(failure(() => compile('_score', {}, false)).caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'cannot resolve symbol [_score]' });
    for (const [source, token] of [['x = 1', '='], ['while (true) 1', 'while'], ['1; 2', ';'], ['def x = 1', 'def'], ['1 & 2', '&'], ['a -> 1', '->'], ['{1}', '{'], ['i++', '++'], ['new int[3]', 'new']]) {
      expect(cause(source)).toEqual({ type: 'illegal_argument_exception', reason: `[${token}] is not supported by this server yet: a script is a single expression` });
    }
    expect(cause("doc['likes'].value.foo()")).toEqual({ type: 'illegal_argument_exception', reason: '[long.foo()] is not supported by this server yet' });
  });

  it('bounds: nesting depth and binary operators in all, each a compile error rather than a stack overflow', () => {
    expect(MAX_SCRIPT_CHAIN).toBeGreaterThan(MAX_SCRIPT_DEPTH);
    const deep = `${'('.repeat(MAX_SCRIPT_DEPTH + 1)}1${')'.repeat(MAX_SCRIPT_DEPTH + 1)}`;
    expect(failure(() => compile(deep)).caused_by).toEqual({ type: 'illegal_argument_exception', reason: `the script is nested too deeply: more than [${MAX_SCRIPT_DEPTH}] levels` });
    expect(failure(() => compile('1+'.repeat(5000) + '1')).caused_by).toMatchObject({ reason: `the script has more than [${MAX_SCRIPT_CHAIN}] binary operators` });
    // Bracketed chains heading chains: 16 × 1,000 operators, each chain under the count alone.
    const chains = '('.repeat(16) + '1' + ('+1'.repeat(1000) + ')').repeat(16);
    expect(failure(() => compile(chains)).caused_by).toMatchObject({ reason: `the script has more than [${MAX_SCRIPT_CHAIN}] binary operators` });
    expect(run(`${'1.5*'.repeat(MAX_SCRIPT_CHAIN)}1`)).toBe(Array.from({ length: MAX_SCRIPT_CHAIN }, () => 1.5).reduce((a, x) => a * x) * 1);
    // Chains inside the deepest nesting still parse, analyze and run.
    const nested = `${'('.repeat(MAX_SCRIPT_DEPTH - 2)}${'1+'.repeat(MAX_SCRIPT_CHAIN)}1${')'.repeat(MAX_SCRIPT_DEPTH - 2)}`;
    expect(run(nested)).toBe(MAX_SCRIPT_CHAIN + 1);
    expect(failure(() => compile(`${'- '.repeat(1000)}1`)).caused_by).toMatchObject({ reason: `the script is nested too deeply: more than [${MAX_SCRIPT_DEPTH}] levels` });
    expect(run(`${'1+'.repeat(60)}1`)).toBe(61);
    // Member accesses count where they nest, not across the whole script.
    expect(run(Array.from({ length: 100 }, () => 'params.a.b').join(' + '), { a: { b: 1 } })).toBe(100);
    expect(failure(() => compile('x'.repeat(70000))).reason).toBe(`exceeded max allowed inline script size in bytes [65535] with size [70000] for script [${'x'.repeat(100)}...]`);
  });
});

describe('painless subset: runtime errors', () => {
  it('def values fail when the operator runs, at its offset, with the boxed class names', () => {
    expect(failure(() => run('params.s * 2', { s: 'a' }))).toEqual({
      type: 'script_exception', reason: 'runtime error', script_stack: ['params.s * 2', '^---- HERE'], script: 'params.s * 2', lang: 'painless',
      position: { offset: 0, start: 0, end: 12 },
      caused_by: { type: 'class_cast_exception', reason: 'Cannot apply [*] operation to types [java.lang.String] and [java.lang.Integer].' },
    });
    expect(failure(() => run('params.a / params.b', { a: 1, b: 0 })).caused_by).toEqual({ type: 'arithmetic_exception', reason: '/ by zero' });
    expect(failure(() => run('params.b ? 1 : 0', { b: 1 })).caused_by).toMatchObject({ type: 'class_cast_exception' });
    expect(failure(() => run('params.s', { s: true })).caused_by).toEqual({ type: 'class_cast_exception', reason: 'cannot implicitly cast def [boolean] to double' });
    // Only the branch that runs can fail.
    expect(run("true ? 1 : params.s * 2", { s: 'a' })).toBe(1);
  });

  it('a concatenation past 2^20 chars fails at its operator instead of growing a string per document without bound', () => {
    const half = 'x'.repeat(1 << 19);
    expect(run("(params.s + params.s).length()", { s: half })).toBe(1 << 20);
    expect(failure(() => run("params.s + params.s + 'y'", { s: half }))).toMatchObject({
      reason: 'runtime error', position: { offset: 0 },
      caused_by: { type: 'illegal_argument_exception', reason: `a string made by a script may be at most [${1 << 20}] chars long, this one would be [${(1 << 20) + 1}]` },
    });
  });

  it('doc values: a missing value, an unmapped field', () => {
    expect(failure(() => run("doc['likes'].value + 1"))).toMatchObject({
      script_stack: ["doc['likes'].value + 1", '            ^---- HERE'], position: { offset: 12, start: 0, end: 22 },
      caused_by: { type: 'illegal_state_exception', reason: 'A document doesn\'t have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!' },
    });
    expect(run("doc['likes'].size() == 0 && doc['price'].empty ? 2 : 1")).toBe(2);
    expect(failure(() => run("doc['nope'].value")).caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'No field found for [nope] in mapping' });
  });
});
