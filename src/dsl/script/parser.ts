/**
 * The Painless subset's grammar: one statement — `expr`, `expr;`, `return expr` or `return expr;` —
 * whose expression uses literals, names, member access (`a.b`, `a.b(...)`, `a[b]`), calls of free
 * functions, the unary `! - +`, casts to primitive types, `* / %`, `+ -`, comparisons, `== !=`,
 * `&& ||` and `?:`, with Java's precedence (PainlessParser.g4). Everything else Painless has —
 * assignments, `++`/`--`, loops, declarations, blocks, lambdas, `new`, bitwise and shift operators,
 * `instanceof`, `===`, regexes, null-safe access — is a compile error naming what is not supported,
 * so a script's evaluation is bounded by its size. The syntax tree is bounded too: at most
 * MAX_DEPTH levels of nesting and MAX_CHAIN binary operators in all (the parser, the analyzer and the
 * evaluator recurse over it; each level costs the parser about a dozen frames, a chained operator
 * one or two).
 */
import { ScriptCompileFailure } from './script-failure.js';
import { stringValue, tokenize, type Token } from './lexer.js';

export type SyntaxNode =
  | { readonly k: 'num'; readonly text: string; readonly negated: boolean; readonly at: number }
  | { readonly k: 'str'; readonly value: string; readonly at: number }
  | { readonly k: 'bool'; readonly value: boolean; readonly at: number }
  | { readonly k: 'null'; readonly at: number }
  | { readonly k: 'id'; readonly name: string; readonly at: number }
  /** `target.name` (`at`: the dot, where Painless points a failing access). */
  | { readonly k: 'member'; readonly target: SyntaxNode; readonly name: string; readonly at: number }
  /** `target.name(args)`, or a free function `name(args)` (target null). */
  | { readonly k: 'call'; readonly target: SyntaxNode | null; readonly name: string; readonly args: readonly SyntaxNode[]; readonly at: number }
  | { readonly k: 'index'; readonly target: SyntaxNode; readonly index: SyntaxNode; readonly at: number }
  | { readonly k: 'unary'; readonly op: '!' | '-' | '+'; readonly e: SyntaxNode; readonly at: number }
  | { readonly k: 'cast'; readonly type: string; readonly e: SyntaxNode; readonly at: number }
  /** A binary operator (`at`: the start of its left operand, as Painless's EBinary). */
  | { readonly k: 'binary'; readonly op: string; readonly l: SyntaxNode; readonly r: SyntaxNode; readonly at: number }
  | { readonly k: 'cond'; readonly c: SyntaxNode; readonly a: SyntaxNode; readonly b: SyntaxNode; readonly at: number };

/** How deeply a script may nest parentheses, calls, member accesses and unary operators (ES has no such limit; a Java stack overflow ends deeper ones). */
export const MAX_DEPTH = 128;
/**
 * How many binary operators a script may hold in all. Counted over the whole script, not per chain:
 * `a + b + c …` nests to the left, and a bracketed chain's result may head another chain, so per-chain
 * counts let 16 bracketed chains of 1,024 make a tree ~16k levels deep (a stack overflow in the
 * recursive passes that follow).
 */
export const MAX_CHAIN = 1024;

const CAST_TYPES = new Set(['int', 'long', 'double', 'float', 'short', 'byte', 'char', 'boolean', 'String', 'def', 'Integer', 'Long', 'Double', 'Float', 'Object', 'Number']);
/** Painless keywords that start statements the subset does not run. */
const STATEMENTS = new Set(['if', 'else', 'while', 'do', 'for', 'in', 'continue', 'break', 'new', 'try', 'catch', 'throw', 'this', 'instanceof', 'def', 'void']);
/** Painless operators the subset refuses (assignments, increments, bitwise and shift operators, reference equality, regexes, null-safe access, elvis, lambdas, references, blocks). */
const UNSUPPORTED_OPERATORS = new Set([
  '=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '>>>=', '++', '--', '&', '|', '^', '~', '<<', '>>', '>>>',
  '===', '!==', '=~', '==~', '?.', '?:', '->', '::', '{',
]);

/** Binary operators by precedence level, loosest first (after `?:`). */
const LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];

/** What Painless has and the subset does not run: named by its token. */
function unsupported(what: string, at: number): ScriptCompileFailure {
  return new ScriptCompileFailure(at, 'illegal_argument_exception', `[${what}] is not supported by this server yet: a script is a single expression`);
}

/** ParserErrorStrategy's messages: the end of the script, or the token it could not place. */
function unexpected(t: Token): ScriptCompileFailure {
  if (t.kind === 'eof') return new ScriptCompileFailure(t.at, 'illegal_argument_exception', 'unexpected end of script.');
  return new ScriptCompileFailure(t.at, 'illegal_argument_exception', `invalid sequence of tokens near ['${t.text.slice(0, 40)}'].`);
}

class Parser {
  private i = 0;
  private depth = 0;
  /** Binary operators parsed so far (MAX_CHAIN bounds them). */
  private operators = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    return this.tokens[this.i < this.tokens.length - 1 ? this.i++ : this.i];
  }

  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  private expect(text: string): Token {
    const t = this.next();
    if (t.kind !== 'op' || t.text !== text) throw this.failAt(t);
    return t;
  }

  /** The error for a token that does not belong where it is: an unsupported construct, or a syntax error. */
  private failAt(t: Token): ScriptCompileFailure {
    if (t.kind === 'op' && UNSUPPORTED_OPERATORS.has(t.text)) return unsupported(t.text, t.at);
    return unexpected(t);
  }

  /** `[return] expr [;]`, then the end of the script. */
  statement(): SyntaxNode {
    const first = this.peek();
    if (first.kind === 'eof') throw unexpected(first);
    if (first.kind === 'id' && first.text === 'return') this.next();
    else if (first.kind === 'id' && STATEMENTS.has(first.text)) throw unsupported(first.text, first.at);
    else if (first.kind === 'id' && CAST_TYPES.has(first.text) && this.peek(1).kind === 'id') throw unsupported(first.text, first.at);
    const e = this.expression();
    const semicolon = this.isOp(';') ? this.next() : null;
    const end = this.peek();
    // A second statement: the subset runs one.
    if (end.kind !== 'eof') throw semicolon !== null ? unsupported(';', semicolon.at) : this.failAt(end);
    return e;
  }

  private nest<T>(at: number, parse: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      throw new ScriptCompileFailure(at, 'illegal_argument_exception', `the script is nested too deeply: more than [${MAX_DEPTH}] levels`);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private expression(): SyntaxNode {
    const at = this.peek().at;
    return this.nest(at, () => {
      const c = this.binary(0);
      if (!this.isOp('?')) return c;
      this.next();
      const a = this.expression();
      this.expect(':');
      const b = this.expression();
      return { k: 'cond', c, a, b, at };
    });
  }

  /** Left-associative operators of `LEVELS[level]` and tighter; each operator adds one level of depth. */
  private binary(level: number): SyntaxNode {
    if (level === LEVELS.length) return this.unary();
    const at = this.peek().at;
    let l = this.binary(level + 1);
    while (this.peek().kind === 'op' && LEVELS[level].includes(this.peek().text)) {
      const op = this.next().text;
      if (++this.operators > MAX_CHAIN) {
        throw new ScriptCompileFailure(at, 'illegal_argument_exception', `the script has more than [${MAX_CHAIN}] binary operators`);
      }
      const r = this.nest(at, () => this.binary(level + 1));
      l = { k: 'binary', op, l, r, at };
    }
    return l;
  }

  private unary(): SyntaxNode {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '!' || t.text === '-' || t.text === '+')) {
      this.next();
      const operandAt = this.peek().at;
      return this.nest(t.at, () => {
        const e = this.unary();
        // A minus before an integer literal is part of it (Painless folds it), so -2147483648 is an int.
        if (t.text === '-' && e.k === 'num' && !e.negated && e.at === operandAt) return { ...e, negated: true, at: t.at };
        return { k: 'unary', op: t.text as '!' | '-' | '+', e, at: t.at };
      });
    }
    if (t.kind === 'op' && t.text === '(' && this.peek(1).kind === 'id' && CAST_TYPES.has(this.peek(1).text) && this.isOp(')', 2)) {
      this.next();
      const type = this.next().text;
      this.next();
      return this.nest(t.at, () => ({ k: 'cast', type, e: this.unary(), at: t.at }));
    }
    if (t.kind === 'op' && UNSUPPORTED_OPERATORS.has(t.text)) throw this.failAt(t);
    return this.postfix(this.primary());
  }

  /** Member accesses, calls and indexes after `target`: each nests the tree one level (restored on return). */
  private postfix(target: SyntaxNode): SyntaxNode {
    const depth = this.depth;
    try {
      return this.postfixChain(target);
    } finally {
      this.depth = depth;
    }
  }

  private postfixChain(target: SyntaxNode): SyntaxNode {
    let node = target;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op') return node;
      if (t.text === '.') {
        this.next();
        const name = this.next();
        if (name.kind !== 'id') throw unexpected(name);
        if (this.isOp('(')) node = this.nest(t.at, () => ({ k: 'call', target: node, name: name.text, args: this.args(), at: t.at }));
        else node = { k: 'member', target: node, name: name.text, at: t.at };
      } else if (t.text === '[') {
        this.next();
        const index = this.nest(t.at, () => this.expression());
        this.expect(']');
        node = { k: 'index', target: node, index, at: t.at };
      } else if (t.text === '?.' || t.text === '++' || t.text === '--' || t.text === '->' || t.text === '::') {
        throw this.failAt(t);
      } else {
        return node;
      }
      if (++this.depth > MAX_DEPTH) throw new ScriptCompileFailure(t.at, 'illegal_argument_exception', `the script is nested too deeply: more than [${MAX_DEPTH}] levels`);
    }
  }

  private args(): SyntaxNode[] {
    this.expect('(');
    const args: SyntaxNode[] = [];
    if (this.isOp(')')) {
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression());
      const t = this.next();
      if (t.kind === 'op' && t.text === ')') return args;
      if (t.kind !== 'op' || t.text !== ',') throw this.failAt(t);
    }
  }

  private primary(): SyntaxNode {
    const t = this.next();
    switch (t.kind) {
      case 'num': return { k: 'num', text: t.text, negated: false, at: t.at };
      case 'str': return { k: 'str', value: stringValue(t.text), at: t.at };
      case 'id':
        if (t.text === 'true' || t.text === 'false') return { k: 'bool', value: t.text === 'true', at: t.at };
        if (t.text === 'null') return { k: 'null', at: t.at };
        if (STATEMENTS.has(t.text) || t.text === 'return') throw t.text === 'return' ? unexpected(t) : unsupported(t.text, t.at);
        if (this.isOp('(')) return this.nest(t.at, () => ({ k: 'call', target: null, name: t.text, args: this.args(), at: t.at }));
        return { k: 'id', name: t.text, at: t.at };
      case 'op':
        if (t.text === '(') {
          const e = this.expression();
          this.expect(')');
          return e;
        }
        throw this.failAt(t);
      default:
        throw unexpected(t);
    }
  }
}

/** The script's one expression, or a ScriptCompileFailure at the offending offset. */
export function parseScript(source: string): SyntaxNode {
  return new Parser(tokenize(source)).statement();
}
